/** /request-password-reset and /q/{org}/request-password-reset. The answer never says whether the account exists. */
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../../common/api/index.ts';
import { checkEmail, formRule } from '../../../common/fieldRules.ts';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { useRequestPasswordReset } from './api.ts';

export function RequestPasswordResetPage() {
  const { org } = useParams();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const request = useRequestPasswordReset();
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: { email: formRule(checkEmail) },
  });

  const submit = form.onSubmit(async ({ email }) => {
    setFailure(null);
    try {
      await request.mutateAsync({ username: email.trim() });
      setSentTo(email.trim());
    } catch (error) {
      setFailure(messageOf(error, api.requestPasswordReset));
    }
  });

  return (
    <Page title="Forgot Password" size="xs">
      <Paper withBorder p="lg">
        {sentTo ? (
          <Alert color="teal" variant="light" role="status">
            If an account exists for {sentTo}, we sent it a link to reset the password. The link works for 1
            hour.
          </Alert>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <Text size="sm">
                Enter your email address and we will send you a link to choose a new password.
              </Text>
              <TextInput
                label="Email"
                type="email"
                autoComplete="email"
                required
                {...form.getInputProps('email')}
              />
              {failure && (
                <Alert color="red" variant="light" role="alert" p="xs">
                  {failure}
                </Alert>
              )}
              <Button type="submit" loading={request.isPending} fullWidth>
                Send reset link
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
      <Anchor component={Link} to={paths.login(org)} size="sm" ta="center">
        Back to sign in
      </Anchor>
    </Page>
  );
}
