import { MultiSelect, Stack } from '@mantine/core';
import { useState } from 'react';
import { api, type Card } from '../../../../common/api/index.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { messageOf } from '../../../lib/api.ts';
import { useBoards } from '../../../shared/api/boards.ts';
import { useSyncCardBoards } from '../../../shared/api/cards.ts';

/** The boards the card is on (sync-card-boards), changed as they are picked. */
export function CardBoards({ card }: { card: Card }) {
  const boards = useBoards();
  const [failure, setFailure] = useState<string | null>(null);
  const sync = useSyncCardBoards();
  const all = boards.data?.boards ?? [];
  const current = all.filter((b) => b.cardIDs.includes(card.id)).map((b) => String(b.id));
  return (
    <Stack gap={6}>
      <MultiSelect
        label="Boards"
        description="The boards this card is on."
        placeholder={current.length ? undefined : 'Choose boards'}
        data={all.map((b) => ({ value: String(b.id), label: b.name }))}
        value={current}
        searchable
        nothingFoundMessage="No boards match"
        disabled={sync.isPending || !boards.data}
        onChange={async (values) => {
          setFailure(null);
          try {
            await sync.mutateAsync({ cardID: card.id, boardIDs: values.map(Number) });
          } catch (error) {
            setFailure(messageOf(error, api.syncCardBoards));
          }
        }}
      />
      <ErrorText message={failure} />
    </Stack>
  );
}
