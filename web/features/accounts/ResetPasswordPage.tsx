/**
 * reset-password/{token} and /q/{org}/reset-password/{token}: Email, Password, Re-enter Password, Reset
 * (SPEC §2). Also where an invited user chooses their first password. Success goes to the returned URL, else /.
 */
import { Alert, Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { PasswordField } from '../../components/PasswordField.tsx';
import { api } from '../../../common/api/index.ts';
import { checkEmail, checkPassword, checkPasswordsMatch, formRule } from '../../../common/fieldRules.ts';
import { Page } from '../../components/Page.tsx';
import { applyServerError } from '../../lib/formErrors.ts';
import { useResetPassword } from './api.ts';

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const invited = search.get('invite') === '1';
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const reset = useResetPassword();
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', password1: '', password2: '' },
    validate: {
      email: formRule(checkEmail),
      password1: (value) => checkPassword(value),
      password2: (value, values) => checkPasswordsMatch(values.password1, value),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await reset.mutateAsync({
        username: values.email.trim(),
        password1: values.password1,
        password2: values.password2,
        token,
      });
      void navigate(answer.redirectURL || '/');
    } catch (error) {
      setFailure(applyServerError(error, api.resetPassword, form.setFieldError, { username: 'email' }));
    }
  });

  return (
    <Page title="Reset Password" size="xs">
      <Paper withBorder p="lg">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              {invited
                ? 'Welcome to Checkboard. Choose the password you will sign in with.'
                : 'Choose a new password for your account.'}
            </Text>
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              {...form.getInputProps('email')}
            />
            <PasswordField
              label="Password"
              autoComplete="new-password"
              required
              {...form.getInputProps('password1')}
            />
            <PasswordField
              label="Re-enter Password"
              autoComplete="new-password"
              required
              {...form.getInputProps('password2')}
            />
            {failure && (
              <Alert color="red" variant="light" role="alert" p="xs">
                {failure}
              </Alert>
            )}
            <Button type="submit" loading={reset.isPending} fullWidth>
              Reset
            </Button>
          </Stack>
        </form>
      </Paper>
    </Page>
  );
}
