/**
 * Keeps the browser's idea of the session true (SPEC §4): the session_expiry cookie checked every 5 s,
 * /api/refresh-token every 4 minutes while logged in, sign-out in another tab followed here, and the login
 * modal over the page when the session is lost, so signing in again keeps the user exactly where they were.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SESSION_COOKIE_CHECK_MS, TOKEN_REFRESH_MS } from '../../../common/constants.ts';
import { apiEvents } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { isLoggedIn, sessionAlive, setLoggedIn, useLoggedIn } from '../../lib/session.ts';
import { isAnonymousPage } from '../../shared/anonymousPages.ts';
import { OnDemand } from '../../components/OnDemand.tsx';
import { refreshToken } from './api.ts';
import { lazyWithStyles } from '../../components/lazyWithStyles.ts';

// The sign-in form over the page is loaded when a session is first lost (docs/decisions/0741).
const LostSessionModal = lazyWithStyles(() =>
  import('./LostSessionModal.tsx').then((m) => ({ default: m.LostSessionModal })),
);

export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

export function SessionWatcher({ orgFromPath }: { orgFromPath: string | undefined }) {
  const loggedIn = useLoggedIn();
  const [lostMessage, setLostMessage] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The anonymous pages never ask for a sign-in, even of a member whose session ran out there.
  const onAnonymousPage = isAnonymousPage(useLocation().pathname);

  useEffect(() => {
    const lose = (message: string) => {
      if (!isLoggedIn()) return;
      setLoggedIn(false);
      setLostMessage(message);
    };
    apiEvents.onUnauthenticated = lose;
    return () => {
      if (apiEvents.onUnauthenticated === lose) apiEvents.onUnauthenticated = undefined;
    };
  }, []);

  useEffect(() => {
    if (!loggedIn) return;
    const check = () => {
      if (!sessionAlive()) {
        setLoggedIn(false);
        setLostMessage(SESSION_EXPIRED);
      }
    };
    const timer = setInterval(check, SESSION_COOKIE_CHECK_MS);
    return () => clearInterval(timer);
  }, [loggedIn]);

  useEffect(() => {
    if (!loggedIn) return;
    const timer = setInterval(async () => {
      try {
        const answer = await refreshToken();
        if (!answer.isAuthorized) {
          setLoggedIn(false);
          setLostMessage(SESSION_EXPIRED);
        }
      } catch {
        // Unreachable for now: the cookie check decides when the session is really gone.
      }
    }, TOKEN_REFRESH_MS);
    return () => clearInterval(timer);
  }, [loggedIn]);

  // Another tab signed out (or in): follow it.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== 'logged_in') return;
      if (event.newValue === 'false') {
        queryClient.clear();
        setLostMessage(null);
        void navigate(paths.login(orgFromPath));
      } else if (event.newValue === 'true') {
        setLostMessage(null);
        void queryClient.invalidateQueries();
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [navigate, orgFromPath, queryClient]);

  const shown = lostMessage !== null && !onAnonymousPage;
  return (
    <OnDemand when={shown}>
      <LostSessionModal
        opened={shown}
        message={lostMessage}
        orgFromPath={orgFromPath}
        onSignedIn={(answer) => {
          setLoggedIn(true);
          setLostMessage(null);
          if (answer.redirectURL) {
            void navigate(answer.redirectURL);
            return;
          }
          void queryClient.invalidateQueries();
        }}
      />
    </OnDemand>
  );
}
