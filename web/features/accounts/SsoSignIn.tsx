/**
 * "Sign in with SSO" on an organisation's sign-in page when it has single sign-on on (docs/decisions/0720):
 * the server starts the sign-in and answers the identity provider's page, where the browser goes.
 */
import { Button, Divider } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { messageOf } from '../../lib/api.ts';
import { startSso, useSsoLoginOptions } from './api.ts';

export function SsoSignIn({ orgName }: { orgName: string | undefined }) {
  const options = useSsoLoginOptions(orgName);
  const [starting, setStarting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!orgName || !options.data?.enabled) return null;
  const start = async () => {
    setStarting(true);
    setFailure(null);
    try {
      window.location.assign((await startSso(orgName)).redirectURL);
    } catch (error) {
      setFailure(messageOf(error, api.startSso));
      setStarting(false);
    }
  };
  return (
    <>
      <Divider label="or" labelPosition="center" my="md" />
      <Button variant="default" fullWidth loading={starting} onClick={start}>
        Sign in with SSO
      </Button>
      {failure && <ErrorText message={failure} />}
    </>
  );
}
