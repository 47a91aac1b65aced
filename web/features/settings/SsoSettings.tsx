/**
 * The Owner's single sign-on settings (docs/decisions/0720): the organisation's OpenID Connect provider,
 * the role of members added when they first sign in, the allowed email domains, and whether everyone but
 * the Owner must sign in with it. The client secret is never shown: only whether one is stored.
 */
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  PasswordInput,
  Radio,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { api, type ResponseOf } from '../../../common/api/index.ts';
import { ROLE_LABELS } from '../../../common/roles.ts';
import {
  SSO_CLIENT_ID_MAX,
  SSO_CLIENT_SECRET_MAX,
  SSO_ISSUER_MAX,
  SSO_ROLES,
  ssoMessages,
  type SsoRole,
} from '../../../common/sso.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { messageOf } from '../../lib/api.ts';
import { applyServerError } from '../../lib/formErrors.ts';
import { useSetSsoSettings, useSsoSettings } from './api.ts';
import { GrowingTextarea } from '../../components/GrowingTextarea.tsx';

type Answer = ResponseOf<typeof api.getSsoSettings>;

const domainsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);

export function SsoSettings() {
  const settings = useSsoSettings();
  if (settings.isPending) return <Loading label="Loading the single sign-on settings" />;
  if (settings.isError) return <ErrorText message={messageOf(settings.error, api.getSsoSettings)} />;
  return <SsoForm answer={settings.data} />;
}

function SsoForm({ answer }: { answer: Answer }) {
  const { settings, redirectURI } = answer;
  const save = useSetSsoSettings();
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm({
    initialValues: {
      enabled: settings.enabled,
      issuer: settings.issuer,
      clientId: settings.clientId,
      clientSecret: '',
      defaultRole: settings.defaultRole as SsoRole,
      allowedDomains: settings.allowedDomains.join('\n'),
      requireSso: settings.requireSso,
    },
    validate: {
      issuer: (value) => (value.trim() ? null : ssoMessages.issuerRequired),
      clientId: (value) => (value.trim() ? null : ssoMessages.clientIdRequired),
      requireSso: (value, values) => (value && !values.enabled ? ssoMessages.requireNeedsEnabled : null),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setSaved(false);
    try {
      await save.mutateAsync({
        ...values,
        clientSecret: values.clientSecret.trim() || undefined,
        allowedDomains: domainsOf(values.allowedDomains),
      });
      form.setFieldValue('clientSecret', '');
      setSaved(true);
    } catch (error) {
      setFailure(applyServerError(error, api.setSsoSettings, form.setFieldError));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby="sso-heading">
      <Stack gap="md" maw={560}>
        <Title order={2} size="h3" id="sso-heading">
          Single sign-on (OpenID Connect)
        </Title>
        <Text size="sm">
          Members sign in with your organisation’s identity provider. Register this redirect URI there:
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Code data-testid="sso-redirect-uri" style={{ overflowWrap: 'anywhere' }}>
            {redirectURI}
          </Code>
          <CopyButton value={redirectURI}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Switch label="Turn on single sign-on" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <TextInput
          label="Issuer URL"
          placeholder="https://login.example.com"
          required
          maxLength={SSO_ISSUER_MAX}
          {...form.getInputProps('issuer')}
        />
        <TextInput
          label="Client ID"
          required
          maxLength={SSO_CLIENT_ID_MAX}
          {...form.getInputProps('clientId')}
        />
        <PasswordInput
          label="Client secret"
          description={
            settings.clientSecretSet ? 'Set. Leave empty to keep it, or enter a new one.' : 'Not set.'
          }
          autoComplete="off"
          maxLength={SSO_CLIENT_SECRET_MAX}
          {...form.getInputProps('clientSecret')}
        />
        <Radio.Group
          label="Role of members added at their first sign-in"
          {...form.getInputProps('defaultRole')}
        >
          <Group gap="lg" mt={6}>
            {SSO_ROLES.map((role) => (
              <Radio key={role} value={role} label={ROLE_LABELS[role]} />
            ))}
          </Group>
        </Radio.Group>
        <GrowingTextarea
          label="Allowed email domains"
          description="One per line, e.g. example.com. Empty: any address the provider has verified may join."
          minRows={2}
          {...form.getInputProps('allowedDomains')}
        />
        <Switch
          label="Require SSO for everyone but the Owner"
          description="Password sign-in and password reset are refused to every other member."
          {...form.getInputProps('requireSso', { type: 'checkbox' })}
        />
        <ErrorText message={failure} />
        {saved && (
          <Alert color="teal" variant="light" role="status" p="xs">
            Single sign-on settings saved.
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save single sign-on settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
