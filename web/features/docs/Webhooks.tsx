/**
 * Webhooks for administrators (docs/decisions/0585): add an endpoint for some events (its signing secret
 * shown once), pause or delete it, read its delivery log and send a delivery again.
 */
import {
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
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
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX,
  type Webhook,
  type WebhookEvent,
} from '../../../common/api/index.ts';
import { ConfirmDeleteModal } from '../../components/ConfirmDeleteModal.tsx';
import { SecretShownOnce } from './SecretShownOnce.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { messageOf } from '../../lib/api.ts';
import { applyServerError } from '../../lib/formErrors.ts';
import {
  useAddWebhook,
  useDeleteWebhook,
  useDeliveries,
  useEditWebhook,
  useResendDelivery,
  useWebhooks,
} from './api.ts';

const STATUS_LABELS = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' } as const;
const STATUS_COLOURS = { pending: 'gray', delivered: 'teal.9', failed: 'red.9' } as const;
const time = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' }) : '—';

function AddWebhookModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const add = useAddWebhook();
  const [secret, setSecret] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    initialValues: { url: '', description: '', events: ['evaluation.completed'] as WebhookEvent[] },
    validate: {
      url: (value) => (value.trim() ? null : 'Enter the endpoint URL.'),
      events: (value) => (value.length ? null : 'Choose at least one event.'),
    },
  });
  const close = () => {
    form.reset();
    setSecret(null);
    setFailure(null);
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      setSecret((await add.mutateAsync(values)).secret);
    } catch (error) {
      setFailure(applyServerError(error, api.addWebhook, form.setFieldError));
    }
  });
  return (
    <Modal opened={opened} onClose={close} title={secret ? 'Your webhook signing secret' : 'New webhook'}>
      {secret ? (
        <SecretShownOnce secret={secret} label="Signing secret" onDone={close}>
          Check each delivery's Checkboard-Signature with this secret. It is shown only this once.
        </SecretShownOnce>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label="Endpoint URL"
              placeholder="https://example.com/hooks/checkboard"
              required
              maxLength={WEBHOOK_URL_MAX}
              {...form.getInputProps('url')}
            />
            <TextInput
              label="Description"
              maxLength={WEBHOOK_DESCRIPTION_MAX}
              {...form.getInputProps('description')}
            />
            <Checkbox.Group label="Events" required {...form.getInputProps('events')}>
              <Stack gap={6} mt={6}>
                {WEBHOOK_EVENTS.map((event) => (
                  <Checkbox key={event} value={event} label={`${event}: ${WEBHOOK_EVENT_LABELS[event]}`} />
                ))}
              </Stack>
            </Checkbox.Group>
            <ErrorText message={failure} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={add.isPending}>
                Add webhook
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function DeliveriesModal({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const deliveries = useDeliveries(webhook?.id ?? null);
  const resend = useResendDelivery();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Modal
      opened={webhook !== null}
      onClose={onClose}
      size="xl"
      title={`Deliveries to ${webhook?.url ?? ''}`}
    >
      <Stack gap="sm">
        <ErrorText message={failure} />
        {deliveries.isPending && <Loading label="Loading deliveries" />}
        {deliveries.isError && <ErrorText message={messageOf(deliveries.error, api.getWebhookDeliveries)} />}
        {deliveries.data?.deliveries.length === 0 && <Text c="dimmed">Nothing sent yet.</Text>}
        {deliveries.data && deliveries.data.deliveries.length > 0 && (
          <Table striped verticalSpacing="xs" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Event</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Last answer</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Last attempt
                </Table.Th>
                <Table.Th scope="col">
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.data.deliveries.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>
                    {d.event}
                    <br />
                    <Text span size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {d.deliveryID}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOURS[d.status]} variant="filled">
                      {STATUS_LABELS[d.status]}
                    </Badge>
                    <Text size="xs">
                      {d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts`}
                      {d.status === 'pending' && d.nextAttemptAt ? `, next ${time(d.nextAttemptAt)}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {d.lastStatusCode ?? '—'} {d.lastResponse ? `· ${d.lastResponse.slice(0, 120)}` : ''}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{time(d.lastAttemptAt)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Send ${d.event} ${d.deliveryID} again`}
                      disabled={d.status === 'pending'}
                      onClick={async () => {
                        setFailure(null);
                        try {
                          await resend.mutateAsync({ id: d.id });
                          await deliveries.refetch();
                        } catch (error) {
                          setFailure(messageOf(error, api.resendWebhookDelivery));
                        }
                      }}
                    >
                      Send again
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Modal>
  );
}

export function Webhooks() {
  const webhooks = useWebhooks();
  const edit = useEditWebhook();
  const remove = useDeleteWebhook();
  const [adding, setAdding] = useState(false);
  const [viewing, setViewing] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const toggle = async (webhook: Webhook) => {
    setFailure(null);
    try {
      await edit.mutateAsync({ ...webhook, enabled: !webhook.enabled });
    } catch (error) {
      setFailure(messageOf(error, api.editWebhook));
    }
  };
  return (
    <section aria-labelledby="manage-webhooks">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h3" id="manage-webhooks">
          Manage webhooks
        </Title>
        <Button onClick={() => setAdding(true)}>New webhook</Button>
      </Group>
      <Text size="sm" mb="sm">
        Checkboard posts each event as JSON to your HTTPS endpoint, signed in the Checkboard-Signature header
        (<Code>t=…,v1=</Code> HMAC-SHA256 of <Code>t.body</Code>), and retries for 24 hours until it answers
        2xx. Deduplicate by the Checkboard-Delivery header.
      </Text>
      <ErrorText message={failure} />
      {webhooks.isPending && <Loading label="Loading webhooks" />}
      {webhooks.isError && <ErrorText message={messageOf(webhooks.error, api.getWebhooks)} />}
      {webhooks.data?.webhooks.length === 0 && <Text c="dimmed">No webhooks yet.</Text>}
      {webhooks.data && webhooks.data.webhooks.length > 0 && (
        <Stack gap="xs">
          {webhooks.data.webhooks.map((webhook) => (
            <Group
              key={webhook.id}
              justify="space-between"
              wrap="wrap"
              p="xs"
              style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
            >
              <div style={{ minWidth: 0, flex: '1 1 240px' }}>
                <Code style={{ overflowWrap: 'anywhere' }}>{webhook.url}</Code>
                {!webhook.enabled && (
                  <Badge ml="xs" color="gray" variant="outline">
                    Paused
                  </Badge>
                )}
                <Text size="sm">{webhook.description}</Text>
                <Text size="xs">{webhook.events.join(', ')}</Text>
              </div>
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => setViewing(webhook)}>
                  Deliveries
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  loading={edit.isPending}
                  onClick={() => void toggle(webhook)}
                >
                  {webhook.enabled ? 'Pause' : 'Resume'}
                </Button>
                <Button size="xs" variant="default" color="red" onClick={() => setDeleting(webhook)}>
                  Delete
                </Button>
              </Group>
            </Group>
          ))}
        </Stack>
      )}
      <AddWebhookModal opened={adding} onClose={() => setAdding(false)} />
      <DeliveriesModal webhook={viewing} onClose={() => setViewing(null)} />
      <ConfirmDeleteModal
        opened={deleting !== null}
        name={deleting?.url ?? ''}
        call={api.deleteWebhook}
        onDelete={() => remove.mutateAsync({ id: deleting!.id })}
        onClose={() => setDeleting(null)}
      >
        Nothing more is sent to this endpoint; its delivery log is kept.
      </ConfirmDeleteModal>
    </section>
  );
}
