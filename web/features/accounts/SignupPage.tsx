/** /signup: organisation name, email and password, with SPEC §5's rules before the call and the server's after. */
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { PasswordField } from '../../components/PasswordField.tsx';
import { api } from '../../../common/api/index.ts';
import { checkEmail, checkName, checkPassword, formRule } from '../../../common/fieldRules.ts';
import { Page } from '../../components/Page.tsx';
import { ApiError } from '../../lib/api.ts';
import { applyServerError } from '../../lib/formErrors.ts';
import { browserTimeZone } from '../../shared/timeZone.ts';
import { paths } from '../../lib/paths.ts';
import { resendVerification, useSignup } from './api.ts';

export function SignupPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const signup = useSignup();
  const form = useForm({
    mode: 'controlled',
    initialValues: { orgname: '', email: '', password: '' },
    validate: {
      orgname: formRule(checkName),
      email: formRule(checkEmail),
      password: (v) => checkPassword(v),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await signup.mutateAsync({
        orgname: values.orgname.trim(),
        email: values.email.trim(),
        password: values.password,
        // The organisation starts in the Owner's zone (docs/decisions/0587); the Owner can change it later.
        timeZone: browserTimeZone(),
      });
      setSentTo(answer.email);
    } catch (error) {
      // SPEC §8: when the server cannot be reached, sign-up says so in its own words.
      if (error instanceof ApiError && error.status === 0) setFailure(api.signup.failMsg);
      else setFailure(applyServerError(error, api.signup, form.setFieldError));
    }
  });

  if (sentTo) {
    return (
      <Page title="Check Your Email" size="xs">
        <Paper withBorder p="lg">
          <Stack gap="sm">
            <Text>
              We sent a verification link to <strong>{sentTo}</strong>. Open it to verify your account, then
              sign in and choose your plan.
            </Text>
            {resent ? (
              <Alert color="teal" variant="light" role="status" p="xs">
                We sent the email again.
              </Alert>
            ) : (
              <Anchor
                component="button"
                type="button"
                onClick={async () => {
                  await resendVerification(sentTo).catch(() => {});
                  setResent(true);
                }}
              >
                Did not get it? Send it again
              </Anchor>
            )}
          </Stack>
        </Paper>
      </Page>
    );
  }

  return (
    <Page title="Sign Up" size="xs">
      <Paper withBorder p="lg">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label="Organisation name"
              description="5 to 50 characters"
              required
              {...form.getInputProps('orgname')}
            />
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              required
              {...form.getInputProps('email')}
            />
            <PasswordField
              label="Password"
              description="At least 8 characters"
              autoComplete="new-password"
              required
              {...form.getInputProps('password')}
            />
            {failure && (
              <Alert color="red" variant="light" role="alert" p="xs">
                {failure}
              </Alert>
            )}
            <Button type="submit" loading={signup.isPending} fullWidth>
              Sign Up
            </Button>
          </Stack>
        </form>
      </Paper>
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to={paths.login()} underline="always">
          Sign in
        </Anchor>
      </Text>
    </Page>
  );
}
