/**
 * Assigning cards to a board: a checklist of the organisation's cards, with a search box only above 10
 * cards (SPEC §5) and the warning when more than 15 would be assigned.
 */
import { Alert, Checkbox, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { MAX_CARDS_PER_BOARD, PICKER_SEARCH_THRESHOLD } from '../../../common/constants.ts';
import { messages, nameContains } from '../../../common/fieldRules.ts';
import { SearchIcon } from '../../components/icons.tsx';

export function CardPicker({
  cards,
  value,
  onChange,
  label = 'Cards',
}: {
  cards: { id: number; name: string }[];
  value: number[];
  onChange: (ids: number[]) => void;
  label?: string;
}) {
  const [query, setQuery] = useState('');
  const [overLimit, setOverLimit] = useState(false);
  const shown = cards.filter((card) => nameContains(card.name, query));

  const toggle = (id: number, checked: boolean) => {
    if (checked && value.length >= MAX_CARDS_PER_BOARD) {
      setOverLimit(true);
      return;
    }
    setOverLimit(false);
    onChange(checked ? [...value, id] : value.filter((v) => v !== id));
  };

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="card-picker-label">
        {label}{' '}
        <Text span size="sm" c="dimmed">
          ({value.length}/{MAX_CARDS_PER_BOARD})
        </Text>
      </Text>
      {cards.length > PICKER_SEARCH_THRESHOLD && (
        <TextInput
          aria-label="Search cards"
          placeholder="Search cards"
          leftSection={<SearchIcon size={16} />}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
        />
      )}
      {cards.length === 0 ? (
        <Text size="sm" c="dimmed">
          There are no cards yet. Create cards in the Cards tab, then assign them here.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={220} type="auto">
          <Stack gap={6} role="group" aria-labelledby="card-picker-label" py={2}>
            {shown.map((card) => (
              <Checkbox
                key={card.id}
                label={card.name}
                checked={value.includes(card.id)}
                onChange={(event) => toggle(card.id, event.currentTarget.checked)}
              />
            ))}
            {shown.length === 0 && (
              <Text size="sm" c="dimmed">
                No cards match “{query}”.
              </Text>
            )}
          </Stack>
        </ScrollArea.Autosize>
      )}
      {overLimit && (
        <Alert color="yellow" variant="light" p="xs" role="alert">
          {messages.pickerCardLimit(MAX_CARDS_PER_BOARD)}
        </Alert>
      )}
    </Stack>
  );
}
