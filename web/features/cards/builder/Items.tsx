import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Card } from '../../../../common/api/index.ts';
import { MAX_ITEMS_PER_CARD } from '../../../../common/constants.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { PlusIcon } from '../../../components/icons.tsx';
import { messageOf } from '../../../lib/api.ts';
import { keys } from '../../../lib/queryKeys.ts';
import { useAddCardItem, useReplaceCard } from '../../../shared/api/cards.ts';
import { ItemEditor, type ItemValue } from './ItemEditor.tsx';
import { ItemRow } from './ItemRow.tsx';

/** The card's live items in order: reorder (by drag or the arrows) saves the whole card; add one. */
export function Items({ card }: { card: Card }) {
  const queryClient = useQueryClient();
  const items = card.cardItems.filter((i) => !i.isDeleted).sort((a, b) => a.order - b.order);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [addFailure, setAddFailure] = useState<string | null>(null);
  const [addKey, setAddKey] = useState(0);
  const replace = useReplaceCard(card.id);
  const add = useAddCardItem(card.id);

  const move = async (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    const reordered = [...items];
    const [moved] = reordered.splice(from, 1);
    reordered.splice(to, 0, moved!);
    const cardItems = reordered.map((item, order) => ({
      id: item.id,
      type: item.type,
      content: item.content,
      na: item.na,
      order,
      photoOnFail: item.photoOnFail,
      noteOnFail: item.noteOnFail,
    }));
    setFailure(null);
    // Show the new order at once; the whole card is saved in one transaction.
    queryClient.setQueryData(keys.card(card.id), {
      card: { ...card, cardItems: cardItems.map((i) => ({ ...i, cardID: card.id, isDeleted: false })) },
    });
    try {
      await replace.mutateAsync({ card: { id: card.id, name: card.name, cardItems } });
    } catch (error) {
      setFailure(messageOf(error, api.replaceCard));
      await queryClient.invalidateQueries({ queryKey: keys.card(card.id) });
    }
  };

  const addItem = async (value: ItemValue) => {
    setAddFailure(null);
    try {
      const order = items.length ? Math.max(...items.map((i) => i.order)) + 1 : 0;
      await add.mutateAsync({ cardID: card.id, order, ...value });
      setAddKey((k) => k + 1);
      setAdding(false);
    } catch (error) {
      setAddFailure(messageOf(error, api.addCardItem));
    }
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Items
        </Title>
        <Text size="sm" c="dimmed">
          {items.length}/{MAX_ITEMS_PER_CARD}
        </Text>
      </Group>
      {items.length === 0 && !adding && (
        <Text c="dimmed">
          This card has no items yet. Add instructions and the checks an evaluator passes or fails.
        </Text>
      )}
      <ErrorText message={failure} />
      <Stack gap="xs" aria-label="Card items" role="list">
        {items.map((item, index) => (
          <div role="listitem" key={item.id}>
            <ItemRow
              item={item}
              index={index}
              count={items.length}
              onMove={move}
              dragging={dragFrom === index}
              onDragStart={() => setDragFrom(index)}
              onDrop={() => {
                if (dragFrom !== null) void move(dragFrom, index);
                setDragFrom(null);
              }}
            />
          </div>
        ))}
      </Stack>
      {adding ? (
        <Paper withBorder p="sm">
          <ItemEditor
            key={addKey}
            initial={{ type: 'pass_fail', content: '', na: false }}
            submitLabel="Add item"
            busy={add.isPending}
            onSubmit={addItem}
            onCancel={() => setAdding(false)}
            failure={addFailure}
          />
        </Paper>
      ) : (
        <Button
          variant="default"
          leftSection={<PlusIcon size={16} />}
          onClick={() => setAdding(true)}
          disabled={items.length >= MAX_ITEMS_PER_CARD}
          w="fit-content"
        >
          Add item
        </Button>
      )}
    </Stack>
  );
}
