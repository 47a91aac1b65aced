/** A secret the server shows only once (an API token, a webhook's signing secret): what it is, Copy, Done. */
import { Alert, Button, Code, CopyButton, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

export function SecretShownOnce({
  secret,
  label,
  children,
  onDone,
}: {
  secret: string;
  /** The accessible name of the secret's text. */
  label: string;
  /** What to do with it. */
  children: ReactNode;
  onDone: () => void;
}) {
  return (
    <Stack gap="md">
      <Alert color="blue" variant="light" title="Copy it now">
        {children}
      </Alert>
      <Code block aria-label={label} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {secret}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
