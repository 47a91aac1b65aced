/**
 * Email and Password (both required), Sign In and Forgot Password (SPEC §2). A failed sign-in shows the
 * server's message and marks both fields red. Used by the sign-in pages and the session-lost modal.
 */
import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { PasswordField } from '../../components/PasswordField.tsx';
import { api, type ResponseOf } from '../../../common/api/index.ts';
import { ssoMessages } from '../../../common/sso.ts';
import { messages } from '../../../common/fieldRules.ts';
import { messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { login, resendVerification } from './api.ts';

export type LoginAnswer = ResponseOf<typeof api.login>;

export function LoginForm({
  orgName,
  defaultEmail = '',
  onSuccess,
  autoFocus = true,
}: {
  orgName?: string;
  defaultEmail?: string;
  onSuccess: (answer: LoginAnswer) => void;
  autoFocus?: boolean;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  const [resent, setResent] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: defaultEmail, password: '' },
    validate: {
      email: (value) => (value.trim() ? null : messages.emailRequired),
      password: (value) => (value ? null : messages.passwordRequired),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setFailure(null);
    setResent(false);
    try {
      const answer = await login({
        username: values.email.trim(),
        password: values.password,
        ...(orgName ? { orgName } : {}),
      });
      onSuccess(answer);
    } catch (error) {
      const message = messageOf(error, api.login);
      setFailure(message);
      // 403 is also what a member told to use single sign-on gets (decision 0720): nothing to resend.
      setUnverified((error as { status?: number }).status === 403 && message !== ssoMessages.ssoRequired);
    } finally {
      setSubmitting(false);
    }
  });

  const resend = async () => {
    try {
      await resendVerification(form.values.email.trim());
      setResent(true);
    } catch (error) {
      setFailure(messageOf(error, api.resendVerification));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          required
          data-autofocus={autoFocus || undefined}
          {...form.getInputProps('email')}
          error={form.errors.email ?? (failure ? true : undefined)}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
          error={form.errors.password ?? (failure ? true : undefined)}
        />
        {failure && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {failure}
            {unverified && !resent && (
              <>
                {' '}
                <Anchor component="button" type="button" size="sm" underline="always" onClick={resend}>
                  Send the verification email again
                </Anchor>
              </>
            )}
          </Alert>
        )}
        {resent && (
          <Alert color="teal" variant="light" role="status" p="xs">
            We sent a new verification email. Open its link to verify your account.
          </Alert>
        )}
        <Button type="submit" loading={submitting} fullWidth>
          Sign In
        </Button>
        <Anchor component={Link} to={paths.requestPasswordReset(orgName)} size="sm" ta="center">
          Forgot Password
        </Anchor>
      </Stack>
    </form>
  );
}
