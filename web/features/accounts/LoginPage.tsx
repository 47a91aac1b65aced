/** /login and /q/{org}/login. Success follows SPEC §4's order exactly (afterLogin). */
import { Anchor, Paper, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Page } from '../../components/Page.tsx';
import { paths } from '../../lib/paths.ts';
import { setLoggedIn } from '../../lib/session.ts';
import { afterLoginPath } from '../../shared/afterLogin.ts';
import { LoginForm } from './LoginForm.tsx';

export function LoginPage() {
  const { org } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <Page title="Sign In" size="xs">
      <Paper withBorder p="lg">
        <LoginForm
          orgName={org}
          onSuccess={(answer) => {
            setLoggedIn(true);
            void queryClient.invalidateQueries();
            void navigate(afterLoginPath(answer, { stay: false, redirect: search.get('redirect') }));
          }}
        />
      </Paper>
      <Text size="sm" ta="center">
        New to Checkboard?{' '}
        <Anchor component={Link} to={paths.signup()}>
          Sign up
        </Anchor>
      </Text>
    </Page>
  );
}
