/** How evaluations and feedback read on screen, in the browser's time zone. */
import { format } from 'date-fns';
import type { Evaluation } from '../../common/api/index.ts';

export const formatDateTime = (iso: string) => format(new Date(iso), 'd MMM yyyy HH:mm');
export const formatShort = (iso: string) => format(new Date(iso), 'd MMM HH:mm');

/** A square's accessible name, e.g. 'Pass, 12 Nov 14:05, by ann@example.com'. */
export const squareLabel = (evaluation: Pick<Evaluation, 'pass' | 'completedTime' | 'userName'>) =>
  `${evaluation.pass ? 'Pass' : 'Fail'}, ${formatShort(evaluation.completedTime)}, by ${evaluation.userName}`;
