import type { QueryClient } from '@tanstack/react-query';
import { paths } from '../../lib/paths.ts';
import { setLoggedIn } from '../../lib/session.ts';
import { forgetQueries } from '../../shared/offline/persist.ts';
import { logout } from './api.ts';

/** Sign out (SPEC §2): to the URL the answer gives, else /login; the organisation's login page on failure. */
export async function signOut(queryClient: QueryClient, orgName: string | undefined): Promise<string> {
  let target: string;
  try {
    const answer = await logout();
    target = answer.redirectURL || paths.login();
  } catch {
    target = paths.login(orgName);
  }
  setLoggedIn(false);
  queryClient.clear();
  // What was kept for offline use goes too (docs/decisions/0730); unsent evaluations stay, for their owner.
  await forgetQueries();
  return target;
}
