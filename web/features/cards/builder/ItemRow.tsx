import { ActionIcon, Badge, Group, Paper, Stack, Switch, Text, Tooltip, Typography } from '@mantine/core';
import { useState } from 'react';
import { api, CARD_ITEM_TYPE_LABELS, type CardItem } from '../../../../common/api/index.ts';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal.tsx';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { ArrowDownIcon, ArrowUpIcon, EditIcon, GripIcon, TrashIcon } from '../../../components/icons.tsx';
import { messageOf } from '../../../lib/api.ts';
import { useDeleteCardItem, useEditCardItem } from '../../../shared/api/cards.ts';
import classes from './CardBuilder.module.css';
import { ItemEditor, type ItemValue } from './ItemEditor.tsx';

/** One item of the card: shown, edited in place, moved, or deleted. */
export function ItemRow({
  item,
  index,
  count,
  onMove,
  onDragStart,
  onDrop,
  dragging,
}: {
  item: CardItem;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onDragStart: () => void;
  onDrop: () => void;
  dragging: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const edit = useEditCardItem(item.cardID);
  const remove = useDeleteCardItem(item.cardID);
  const label = `item ${index + 1}`;

  const save = async (value: ItemValue) => {
    setFailure(null);
    try {
      await edit.mutateAsync({ id: item.id, cardID: item.cardID, order: item.order, ...value });
      setEditing(false);
    } catch (error) {
      setFailure(messageOf(error, api.editCardItem));
    }
  };

  return (
    <Paper
      withBorder
      p="sm"
      className={classes.item}
      data-dragging={dragging || undefined}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        onDrop();
      }}
      data-testid="card-item"
    >
      {editing ? (
        <ItemEditor
          initial={item}
          submitLabel="Save"
          busy={edit.isPending}
          onSubmit={save}
          onCancel={() => setEditing(false)}
          failure={failure}
        />
      ) : (
        <Group align="flex-start" wrap="nowrap" gap="sm">
          <div
            className={classes.handle}
            draggable
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', String(item.id));
              onDragStart();
            }}
            title="Drag to reorder"
            aria-hidden="true"
          >
            <GripIcon />
          </div>
          <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
            <Group gap="xs">
              <Text size="sm" fw={700}>
                {index + 1}.
              </Text>
              <Badge variant={item.type === 'pass_fail' ? 'filled' : 'default'}>
                {CARD_ITEM_TYPE_LABELS[item.type]}
              </Badge>
            </Group>
            <Typography className={classes.content}>
              <div dangerouslySetInnerHTML={{ __html: item.content }} />
            </Typography>
            {item.type === 'pass_fail' && (
              <Group gap="md">
                <Switch
                  size="sm"
                  label="Allow N/A"
                  checked={item.na}
                  disabled={edit.isPending}
                  onChange={(event) =>
                    void save({ type: item.type, content: item.content, na: event.currentTarget.checked })
                  }
                />
                {/* Issue 12: what a failed answer must come with. */}
                <Switch
                  size="sm"
                  label="Photo required on Fail"
                  checked={item.photoOnFail}
                  disabled={edit.isPending}
                  onChange={(event) =>
                    void save({
                      type: item.type,
                      content: item.content,
                      na: item.na,
                      photoOnFail: event.currentTarget.checked,
                    })
                  }
                />
                <Switch
                  size="sm"
                  label="Note required on Fail"
                  checked={item.noteOnFail}
                  disabled={edit.isPending}
                  onChange={(event) =>
                    void save({
                      type: item.type,
                      content: item.content,
                      na: item.na,
                      noteOnFail: event.currentTarget.checked,
                    })
                  }
                />
              </Group>
            )}
            <ErrorText message={failure} />
          </Stack>
          <Group gap={2} wrap="nowrap">
            <Tooltip label="Move up">
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${label} up`}
                disabled={index === 0}
                onClick={() => onMove(index, index - 1)}
              >
                <ArrowUpIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Move down">
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${label} down`}
                disabled={index === count - 1}
                onClick={() => onMove(index, index + 1)}
              >
                <ArrowDownIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Edit">
              <ActionIcon variant="subtle" aria-label={`Edit ${label}`} onClick={() => setEditing(true)}>
                <EditIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${label}`}
                onClick={() => setDeleting(true)}
              >
                <TrashIcon />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      )}
      <ConfirmDeleteModal
        opened={deleting}
        name={label}
        call={api.deleteCardItem}
        onDelete={() => remove.mutateAsync({ id: item.id })}
        onClose={() => setDeleting(false)}
      >
        Evaluations already made keep their answer to this item.
      </ConfirmDeleteModal>
    </Paper>
  );
}
