import type { QueryClient } from '@tanstack/react-query';
import { paths } from '../../lib/paths.ts';
import { setLoggedIn } from '../../lib/session.ts';
import { forgetQueries } from '../../shared/offline/persist.ts';
import { logout } from './api.ts';

/** Sign out (SPEC §2): to the URL the answer gives, else /login; the organisation's login page on failure. */
export async function signOut(queryClient: QueryClient, orgName: string | undefined): Promise<string> {
  // Signed out here first: a request the server refuses while it ends the session (a refetch, a timer) is
  // then the end of a session the user closed, not a lost one that asks them to sign in again.
  setLoggedIn(false);
  let target: string;
  try {
    const answer = await logout();
    target = answer.redirectURL || paths.login();
  } catch {
    target = paths.login(orgName);
  }
  queryClient.clear();
  // What was kept for offline use goes too (docs/decisions/0730); unsent evaluations stay, for their owner.
  await forgetQueries();
  return target;
}
