/** Whether an address is one of the anonymous pages (SPEC §2), where no sign-in is ever asked for. */
import { matchPath } from 'react-router';
import { readEvaluationPath } from './readings.ts';

export function isAnonymousPage(pathname: string): boolean {
  if (matchPath('/q/:org/boards/:board/thank-you', pathname)) return true;
  if (matchPath('/q/:org/boards/:board/:boardID/eval/:anonKey', pathname)) return true;
  const evaluation = matchPath('/q/:org/boards/:s1/:s2/eval/:s3/:s4/:s5/:s6', pathname);
  return evaluation !== null && readEvaluationPath(evaluation.params).kind === 'anonymous';
}
