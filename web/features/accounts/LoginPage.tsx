/**
 * /login and /q/{org}/login. Success follows SPEC §4's order exactly (afterLogin). A single sign-on comes
 * back here from the server's callback (docs/decisions/0720): `?sso=signed-in` finishes it like a password
 * sign-in, any other `?sso=` code says why it did not.
 */
import { Alert, Anchor, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ssoFailureMessage } from '../../../common/sso.ts';
import { Page } from '../../components/Page.tsx';
import { paths } from '../../lib/paths.ts';
import { sessionAlive, setLoggedIn } from '../../lib/session.ts';
import { afterLoginPath } from '../../shared/afterLogin.ts';
import { LoginForm, type LoginAnswer } from './LoginForm.tsx';
import { SsoSignIn } from './SsoSignIn.tsx';

export function LoginPage() {
  const { org } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sso = search.get('sso');
  const ssoSignedIn = sso === 'signed-in' && org !== undefined && sessionAlive();

  const onSuccess = (answer: LoginAnswer) => {
    setLoggedIn(true);
    void queryClient.invalidateQueries();
    void navigate(afterLoginPath(answer, { stay: false, redirect: search.get('redirect') }), {
      replace: true,
    });
  };

  useEffect(() => {
    // The callback set the session cookie; the server's redirect (/plans) comes as `redirect`.
    if (ssoSignedIn) onSuccess({ orgName: org, redirectURL: null });
    // Once, when the page opens after the callback.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ssoSignedIn]);

  const ssoFailure = sso === 'signed-in' ? null : ssoFailureMessage(sso);
  return (
    <Page title="Sign In" size="xs">
      <Paper withBorder p="lg">
        <Stack gap="sm">
          {ssoFailure && (
            <Alert color="red" variant="light" role="alert" p="xs" data-testid="sso-failure">
              {ssoFailure}
            </Alert>
          )}
          <LoginForm orgName={org} onSuccess={onSuccess} />
        </Stack>
        <SsoSignIn orgName={org} />
      </Paper>
      <Text size="sm" ta="center">
        New to Checkboard?{' '}
        <Anchor component={Link} to={paths.signup()} underline="always">
          Sign up
        </Anchor>
      </Text>
    </Page>
  );
}
