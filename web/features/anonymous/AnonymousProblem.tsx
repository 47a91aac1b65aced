/**
 * What an anonymous page shows when its key does not work, or the server cannot be reached: the server's
 * message as given, never a sign-in prompt. An expired or wrong key (404) asks for the code to be scanned
 * again; anything else can be tried again.
 */
import { Button, Paper, Stack, Text } from '@mantine/core';
import type { CallDef } from '../../../common/api/define.ts';
import { QrIcon } from '../../components/icons.tsx';
import { Page } from '../../components/Page.tsx';
import { ApiError, messageOf } from '../../lib/api.ts';

export const SCAN_AGAIN_TITLE = 'Scan the QR code again';

export function AnonymousProblem({
  error,
  call,
  onRetry,
}: {
  error: unknown;
  call: CallDef;
  onRetry?: () => void;
}) {
  const keyRefused = error instanceof ApiError && error.status === 404;
  return (
    <Page title={keyRefused ? SCAN_AGAIN_TITLE : 'Something went wrong'} size="sm">
      <Paper withBorder p="lg" data-testid="anonymous-problem">
        <Stack gap="md" align="center" ta="center">
          {keyRefused && <QrIcon size={56} />}
          <Text size="lg" fw={500} role="alert">
            {messageOf(error, call)}
          </Text>
          {!keyRefused && onRetry && (
            <Button size="lg" onClick={onRetry}>
              Try again
            </Button>
          )}
        </Stack>
      </Paper>
    </Page>
  );
}

/** A path segment that must be an id (positive integer), or null. */
export const idFrom = (value: string | undefined) =>
  value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
