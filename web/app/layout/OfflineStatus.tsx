/**
 * What the device holds back (issue 14, docs/decisions/0730): that the app is offline and shows the last
 * data seen, and how many evaluations are saved here waiting to be sent, with any the server refused.
 */
import { Paper, Stack, Text } from '@mantine/core';
import { SAVED_ON_DEVICE, useOutbox } from '../../shared/offline/outbox.ts';
import { useOnline } from '../../shared/offline/useOnline.ts';

export function OfflineStatus() {
  const online = useOnline();
  const waiting = useOutbox();
  const refused = waiting.filter((entry) => entry.refused !== null);
  const pending = waiting.length - refused.length;
  if (online && waiting.length === 0) return null;
  return (
    <Paper radius={0} p="xs" bg="yellow.1" c="dark.9" data-testid="offline-status">
      <Stack gap={2} align="center" role="status" aria-live="polite">
        {!online && (
          <Text size="sm" fw={600}>
            You are offline. Showing what was last seen.
          </Text>
        )}
        {pending > 0 && (
          <Text size="sm">
            {pending === 1 ? '1 evaluation' : `${pending} evaluations`} waiting to send.{' '}
            {online ? 'Sending…' : `${SAVED_ON_DEVICE}.`}
          </Text>
        )}
        {refused.map((entry) => (
          <Text size="sm" key={entry.id} c="red.9">
            {entry.cardName ?? 'An evaluation'} was not accepted: {entry.refused}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}
