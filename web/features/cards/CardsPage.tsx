/** The Cards tab (admins): every card, how many items and which boards it is on; new, edit, delete. */
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Card } from '../../../common/api/index.ts';
import { nameContains } from '../../../common/fieldRules.ts';
import { ConfirmDeleteModal } from '../../components/ConfirmDeleteModal.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import { EditIcon, PlusIcon, SearchIcon, TrashIcon } from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { useBoards } from '../../shared/api/boards.ts';
import { useCards, useCardsUsed, useDeleteCard, useDeletedCards } from '../../shared/api/cards.ts';

function DeleteCardModal({ card, onClose }: { card: Card | null; onClose: () => void }) {
  const remove = useDeleteCard();
  return (
    <ConfirmDeleteModal
      opened={card !== null}
      name={card?.name ?? ''}
      call={api.deleteCard}
      onDelete={() => remove.mutateAsync({ id: card!.id })}
      onClose={onClose}
    >
      The card comes off every board. Its evaluations stay in history under its name.
    </ConfirmDeleteModal>
  );
}

export function CardsPage() {
  const { org = '' } = useParams();
  const cards = useCards();
  const boards = useBoards();
  const used = useCardsUsed();
  const deleted = useDeletedCards();
  const [query, setQuery] = useState('');
  const [deleting, setDeleting] = useState<Card | null>(null);
  const boardNames = (cardId: number) =>
    (boards.data?.boards ?? []).filter((b) => b.cardIDs.includes(cardId)).map((b) => b.name);
  const shown = (cards.data?.cards ?? []).filter((c) => nameContains(c.name, query));
  const errors = [
    cards.error && messageOf(cards.error, api.getCards),
    boards.error && messageOf(boards.error, api.getBoards),
    deleted.error && messageOf(deleted.error, api.getDeletedCards),
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <Page
      title="Cards"
      actions={
        <Group gap="md">
          {used.data && (
            <Text size="sm" c="dimmed" data-testid="cards-used">
              {used.data.used}/{used.data.total} Cards Used
            </Text>
          )}
          <Button component={Link} to={paths.newCard(org)} leftSection={<PlusIcon size={16} />}>
            New Card
          </Button>
        </Group>
      }
    >
      <TextInput
        aria-label="Search cards"
        placeholder="Search cards"
        leftSection={<SearchIcon size={16} />}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        maw={360}
      />
      <ErrorText message={errors || null} />
      {cards.isPending && <Loading label="Loading cards" />}
      {cards.data && cards.data.cards.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>You have not created any cards yet.</Text>
          <Text c="dimmed">
            A card is a checklist: instructions and pass/fail checks. Create one, then put it on a board.
          </Text>
        </Paper>
      )}
      {shown.length > 0 && (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Card</Table.Th>
                <Table.Th>Items</Table.Th>
                <Table.Th>Boards</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((card) => {
                const names = boardNames(card.id);
                return (
                  <Table.Tr key={card.id}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.editCard(org, card.id)} fw={600}>
                        {card.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{card.cardItems.filter((i) => !i.isDeleted).length}</Table.Td>
                    <Table.Td>
                      {card.hasBoard ? (
                        <Text size="sm">{names.join(', ')}</Text>
                      ) : (
                        <Badge variant="default">Not on a board</Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Tooltip label="Edit card">
                          <ActionIcon
                            component={Link}
                            to={paths.editCard(org, card.id)}
                            variant="subtle"
                            aria-label={`Edit ${card.name}`}
                          >
                            <EditIcon />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Delete card">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Delete ${card.name}`}
                            onClick={() => setDeleting(card)}
                          >
                            <TrashIcon />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {cards.data && cards.data.cards.length > 0 && shown.length === 0 && (
        <Text c="dimmed" role="status">
          No cards match “{query}”.
        </Text>
      )}
      {deleted.data && deleted.data.cards.length > 0 && (
        <Stack gap={4} mt="md">
          <Title order={2} size="h5">
            Deleted in the last 31 days
          </Title>
          <Text size="sm" c="dimmed">
            {deleted.data.cards.map((c) => c.name).join(', ')}
          </Text>
        </Stack>
      )}
      <DeleteCardModal card={deleting} onClose={() => setDeleting(null)} />
    </Page>
  );
}
