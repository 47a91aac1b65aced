/**
 * New Board, Edit Board Name and Delete {board name} (SPEC §2). Submit shows loading while the call runs;
 * closing resets fields and errors (each opening mounts a fresh form).
 */
import { Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { api, type Board } from '../../../common/api/index.ts';
import { checkItemName, messages, nameKey } from '../../../common/fieldRules.ts';
import { ConfirmDeleteModal } from '../../components/ConfirmDeleteModal.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import { applyServerError } from '../../lib/formErrors.ts';
import { useAddBoard, useDeleteBoard, useEditBoard } from '../../shared/api/boards.ts';
import { CardPicker } from './CardPicker.tsx';

function BoardForm({
  board,
  boards,
  cards,
  onClose,
}: {
  board: Board | null;
  boards: Board[];
  cards: { id: number; name: string }[];
  onClose: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const add = useAddBoard();
  const edit = useEditBoard();
  const liveCardIds = new Set(cards.map((c) => c.id));
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: board?.name ?? '',
      cardIDs: (board?.cardIDs ?? []).filter((id) => liveCardIds.has(id)),
      hasAnonymous: board?.hasAnonymous ?? false,
    },
    validate: {
      name: (value) => {
        const problem = checkItemName(value.trim());
        if (problem) return problem;
        // A board's edit ignores its own name.
        const taken = boards.some((b) => b.id !== board?.id && nameKey(b.name) === nameKey(value.trim()));
        return taken ? messages.nameExists : null;
      },
    },
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = { name: values.name.trim(), cardIDs: values.cardIDs, hasAnonymous: values.hasAnonymous };
    try {
      if (board) await edit.mutateAsync({ id: board.id, ...body });
      else await add.mutateAsync(body);
      onClose();
    } catch (error) {
      setFailure(applyServerError(error, board ? api.editBoard : api.addBoard, form.setFieldError));
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={board ? 'New Name' : 'Name'}
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        <CardPicker
          label="Assign cards"
          cards={cards}
          value={form.values.cardIDs}
          onChange={(ids) => form.setFieldValue('cardIDs', ids)}
        />
        <Switch
          label="Allow Anonymous Evaluations"
          description="Anyone who scans the board's QR code can evaluate it, without an account."
          {...form.getInputProps('hasAnonymous', { type: 'checkbox' })}
        />
        <ErrorText message={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending || edit.isPending}>
            Submit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function BoardFormModal({
  opened,
  board,
  boards,
  cards,
  onClose,
}: {
  opened: boolean;
  board: Board | null;
  boards: Board[];
  cards: { id: number; name: string }[];
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={board ? 'Edit Board Name' : 'New Board'} size="md">
      {opened && (
        <BoardForm key={board?.id ?? 'new'} board={board} boards={boards} cards={cards} onClose={onClose} />
      )}
    </Modal>
  );
}

export function DeleteBoardModal({ board, onClose }: { board: Board | null; onClose: () => void }) {
  const remove = useDeleteBoard();
  return (
    <ConfirmDeleteModal
      opened={board !== null}
      name={board?.name ?? ''}
      call={api.deleteBoard}
      onDelete={() => remove.mutateAsync({ id: board!.id })}
      onClose={onClose}
    >
      The board and its QR code go away. Its evaluations stay in search and exports.
    </ConfirmDeleteModal>
  );
}
