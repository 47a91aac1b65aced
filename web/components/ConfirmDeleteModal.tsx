/**
 * 'Delete {name}' with Delete/Cancel (SPEC §2's pattern for boards, used for every deletion): the call runs
 * with Delete showing loading; its failure is shown in the modal; closing resets it.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { CallDef } from '../../common/api/define.ts';
import { messageOf } from '../lib/api.ts';
import { ErrorText } from './ErrorText.tsx';

export function ConfirmDeleteModal({
  opened,
  name,
  children,
  call,
  onDelete,
  onClose,
}: {
  opened: boolean;
  /** What is deleted, as the title names it. */
  name: string;
  /** What deleting means for the user. */
  children: ReactNode;
  /** The call, for its fallback message. */
  call: CallDef;
  onDelete: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setFailure(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Delete ${name}`}>
      <Stack gap="md">
        <Text>{children}</Text>
        <ErrorText message={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={async () => {
              setBusy(true);
              setFailure(null);
              try {
                await onDelete();
                close();
              } catch (error) {
                setFailure(messageOf(error, call));
              } finally {
                setBusy(false);
              }
            }}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
