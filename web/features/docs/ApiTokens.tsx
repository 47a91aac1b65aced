/**
 * The organisation's API tokens, for administrators (docs/decisions/0584): make one (its secret shown once,
 * to copy), see who made each and when it was last used, revoke one.
 */
import {
  Button,
  Code,
  Group,
  Modal,
  Radio,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import {
  api,
  API_TOKEN_ACCESS_LABELS,
  type ApiToken,
  type ApiTokenAccess,
} from '../../../common/api/index.ts';
import { checkShortName, formRule } from '../../../common/fieldRules.ts';
import { SecretShownOnce } from './SecretShownOnce.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { messageOf } from '../../lib/api.ts';
import { applyServerError } from '../../lib/formErrors.ts';
import { useAddApiToken, useApiTokens, useRevokeApiToken } from './api.ts';

const DAY = 24 * 60 * 60_000;
const EXPIRIES = [
  { value: 'never', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
];

/** The expiry a choice means, from now (when the form is sent). */
const expiryFrom = (choice: string) =>
  choice === 'never' ? null : new Date(Date.now() + Number(choice) * DAY).toISOString();
const when = (iso: string | null, otherwise: string) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : otherwise;
const expired = (token: ApiToken) => token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();

function NewTokenModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const add = useAddApiToken();
  const [secret, setSecret] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', access: 'read' as ApiTokenAccess, expiry: '90' },
    validate: { name: formRule(checkShortName) },
  });
  const close = () => {
    form.reset();
    setSecret(null);
    setFailure(null);
    add.reset();
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await add.mutateAsync({
        name: values.name.trim(),
        access: values.access,
        expiresAt: expiryFrom(values.expiry),
      });
      setSecret(answer.secret);
    } catch (error) {
      setFailure(applyServerError(error, api.addApiToken, form.setFieldError));
    }
  });

  return (
    <Modal opened={opened} onClose={close} title={secret ? 'Your new API token' : 'New API token'}>
      {secret ? (
        <SecretShownOnce secret={secret} label="API token" onDone={close}>
          This is the only time the token is shown. Keep it somewhere safe, like a password.
        </SecretShownOnce>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label="Name"
              description="What uses it, e.g. Warehouse BI"
              required
              {...form.getInputProps('name')}
            />
            <Radio.Group label="Access" {...form.getInputProps('access')}>
              <Stack gap={6} mt={6}>
                <Radio
                  value="read"
                  label={`${API_TOKEN_ACCESS_LABELS.read}: reads boards, cards, evaluations and reports`}
                />
                <Radio
                  value="write"
                  label={`${API_TOKEN_ACCESS_LABELS.write}: also adds and changes them, as you could`}
                />
              </Stack>
            </Radio.Group>
            <Select label="Expires" data={EXPIRIES} allowDeselect={false} {...form.getInputProps('expiry')} />
            <ErrorText message={failure} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={add.isPending}>
                Create token
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function RevokeModal({ token, onClose }: { token: ApiToken | null; onClose: () => void }) {
  const revoke = useRevokeApiToken();
  const [failure, setFailure] = useState<string | null>(null);
  const close = () => {
    setFailure(null);
    onClose();
  };
  return (
    <Modal opened={token !== null} onClose={close} title={`Revoke ${token?.name ?? ''}`}>
      <Stack gap="md">
        <Text>Anything using this token stops working at once. This cannot be undone.</Text>
        <ErrorText message={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={revoke.isPending}
            onClick={async () => {
              setFailure(null);
              try {
                await revoke.mutateAsync({ id: token!.id });
                close();
              } catch (error) {
                setFailure(messageOf(error, api.revokeApiToken));
              }
            }}
          >
            Revoke
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function ApiTokens() {
  const tokens = useApiTokens(true);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  return (
    <section aria-labelledby="api-tokens">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h3" id="api-tokens">
          Manage API tokens
        </Title>
        <Button onClick={() => setCreating(true)}>New API token</Button>
      </Group>
      <Text size="sm" mb="sm">
        Another system calls the API with <Code>Authorization: Bearer</Code> and a token. A token acts for the
        administrator who made it, never with more rights than they have, and cannot manage users or tokens.
      </Text>
      {tokens.isPending && <Loading label="Loading API tokens" />}
      {tokens.isError && <ErrorText message={messageOf(tokens.error, api.getApiTokens)} />}
      {tokens.data &&
        (tokens.data.tokens.length === 0 ? (
          <Text c="dimmed">No API tokens yet.</Text>
        ) : (
          <Table striped verticalSpacing="xs" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Access</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Made by
                </Table.Th>
                <Table.Th scope="col">Expires</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Last used
                </Table.Th>
                <Table.Th scope="col">
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.data.tokens.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>
                    {token.name}
                    <br />
                    <Code style={{ overflowWrap: 'anywhere' }}>{token.prefix}…</Code>
                  </Table.Td>
                  <Table.Td>{API_TOKEN_ACCESS_LABELS[token.access]}</Table.Td>
                  <Table.Td visibleFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                    {token.createdBy}
                  </Table.Td>
                  <Table.Td>
                    {expired(token) ? (
                      <Text span fw={700} size="sm">
                        Expired {when(token.expiresAt, '')}
                      </Text>
                    ) : (
                      when(token.expiresAt, 'Never')
                    )}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{when(token.lastUsedAt, 'Never')}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Revoke ${token.name}`}
                      onClick={() => setRevoking(token)}
                    >
                      Revoke
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ))}
      <NewTokenModal opened={creating} onClose={() => setCreating(false)} />
      <RevokeModal token={revoking} onClose={() => setRevoking(null)} />
    </section>
  );
}
