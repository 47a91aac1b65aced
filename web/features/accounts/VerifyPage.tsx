/** /verify?token=…: confirms the emailed link (POST /api/verify-email), then offers to sign in. */
import { Alert, Button, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../../common/api/index.ts';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { verifyEmail } from './api.ts';
import { paths } from '../../lib/paths.ts';

type State =
  { kind: 'verifying' } | { kind: 'verified'; redirectURL: string } | { kind: 'failed'; message: string };

export function VerifyPage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [state, setState] = useState<State>(
    token
      ? { kind: 'verifying' }
      : {
          kind: 'failed',
          message: 'This verification link is incomplete. Open the link from your email again.',
        },
  );
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    verifyEmail(token)
      .then((answer) => setState({ kind: 'verified', redirectURL: answer.redirectURL }))
      .catch((error) => setState({ kind: 'failed', message: messageOf(error, api.verifyEmail) }));
  }, [token]);

  return (
    <Page title="Verify Email" size="xs">
      <Paper withBorder p="lg">
        {state.kind === 'verifying' && <Loading label="Verifying your email address" />}
        {state.kind === 'verified' && (
          <Stack gap="sm">
            <Alert color="teal" variant="light" role="status">
              Your email address is verified.
            </Alert>
            <Text>Sign in to choose your plan and set up your boards.</Text>
            <Button component={Link} to={state.redirectURL}>
              Sign in
            </Button>
          </Stack>
        )}
        {state.kind === 'failed' && (
          <Stack gap="sm">
            <Alert color="red" variant="light" role="alert">
              {state.message}
            </Alert>
            <Button component={Link} to={paths.login()} variant="default">
              Go to sign in
            </Button>
          </Stack>
        )}
      </Paper>
    </Page>
  );
}
