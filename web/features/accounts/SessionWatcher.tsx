/**
 * Keeps the browser's idea of the session true (SPEC §4): the session_expiry cookie checked every 5 s,
 * /api/refresh-token every 4 minutes while logged in, sign-out in another tab followed here, and the login
 * modal over the page when the session is lost, so signing in again keeps the user exactly where they were.
 */
import { Alert, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SESSION_COOKIE_CHECK_MS, TOKEN_REFRESH_MS } from '../../../common/constants.ts';
import { apiEvents } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { isLoggedIn, sessionAlive, setLoggedIn, useLoggedIn } from '../../lib/session.ts';
import { isAnonymousPage } from '../../shared/anonymousPages.ts';
import { LoginForm } from './LoginForm.tsx';
import { refreshToken } from './api.ts';

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

  return (
    <Modal
      opened={lostMessage !== null && !onAnonymousPage}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title="Sign in to continue"
      centered
      // Above anything the page has open, which it keeps underneath.
      zIndex={1000}
      overlayProps={{ backgroundOpacity: 0.6, blur: 3 }}
    >
      <Stack gap="sm">
        <Alert color="yellow" variant="light" role="alert" p="xs">
          {lostMessage}
        </Alert>
        <Text size="sm" c="dimmed">
          Your work on this page is kept; sign in to carry on.
        </Text>
        <LoginForm
          orgName={orgFromPath}
          onSuccess={(answer) => {
            setLoggedIn(true);
            setLostMessage(null);
            if (answer.redirectURL) {
              void navigate(answer.redirectURL);
              return;
            }
            void queryClient.invalidateQueries();
          }}
        />
      </Stack>
    </Modal>
  );
}
