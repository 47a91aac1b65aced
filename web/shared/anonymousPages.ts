/** Whether an address is one of the anonymous pages (SPEC §2), where no sign-in is ever asked for. */
import { matchPath } from 'react-router';
import { readEvaluationPath } from './readings.ts';

function readPathname(pathname: string): boolean {
  if (matchPath('/q/:org/boards/:board/thank-you', pathname)) return true;
  if (matchPath('/q/:org/boards/:board/:boardID/eval/:anonKey', pathname)) return true;
  const evaluation = matchPath('/q/:org/boards/:s1/:s2/eval/:s3/:s4/:s5/:s6', pathname);
  return evaluation !== null && readEvaluationPath(evaluation.params).kind === 'anonymous';
}

// The last address read: the frame asks on every render of the page, and matchPath builds its patterns'
// regular expressions afresh each call (35 ms of the evaluation page's load at 4x slower CPU, decision 0771).
let last: { pathname: string; anonymous: boolean } | null = null;

export function isAnonymousPage(pathname: string): boolean {
  if (last?.pathname !== pathname) last = { pathname, anonymous: readPathname(pathname) };
  return last.anonymous;
}
