/**
 * The boards panel, /q/{org}/home (SPEC §2): search, 'n/total Boards Used', the Anonymous Boards link, the
 * boards as tiles, and for an admin in edit mode the '+' prompt and each board's edit and delete buttons.
 */
import {
  ActionIcon,
  Anchor,
  Badge,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Board } from '../../../common/api/index.ts';
import { roleOf, show } from '../../../common/roles.ts';
import { nameContains } from '../../../common/fieldRules.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { EditIcon, PlusIcon, SearchIcon, TrashIcon } from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { useEditMode } from '../../lib/editMode.ts';
import { paths } from '../../lib/paths.ts';
import { useUserData } from '../../lib/queries.ts';
import { useCards } from '../../shared/api/cards.ts';
import { useBoards, useBoardsUsed } from '../../shared/api/boards.ts';
import { useBoardScheduleCounts } from '../../shared/api/schedules.ts';
import { BoardFormModal, DeleteBoardModal } from './BoardModals.tsx';
import classes from './BoardsPanel.module.css';

export const NO_CARDS_NOTE = 'No cards in board. Edit the board to assign a card.';

function BoardTile({
  org,
  board,
  editing,
  schedule,
  onEdit,
  onDelete,
}: {
  org: string;
  board: Board;
  editing: boolean;
  /** Scheduled checks (issue 13): still due today, missed this week. */
  schedule: { dueToday: number; missedThisWeek: number } | undefined;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const count = board.cardIDs.length;
  return (
    <Paper withBorder p="md" className={classes.tile} data-testid="board-tile">
      <Stack gap={6} h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Anchor
            component={Link}
            to={paths.board(org, board.name)}
            fw={700}
            size="lg"
            className={classes.name}
          >
            {board.name}
          </Anchor>
          {editing && (
            <Group gap={2} wrap="nowrap">
              <Tooltip label="Edit board">
                <ActionIcon variant="subtle" aria-label={`Edit ${board.name}`} onClick={onEdit}>
                  <EditIcon />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Delete board">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete ${board.name}`}
                  onClick={onDelete}
                >
                  <TrashIcon />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {count === 1 ? '1 card' : `${count} cards`}
          </Text>
          {board.hasAnonymous && (
            <Badge size="sm" variant="default">
              Anonymous
            </Badge>
          )}
        </Group>
        {schedule && (schedule.dueToday > 0 || schedule.missedThisWeek > 0) && (
          <Group gap="xs" data-testid="board-schedule">
            {schedule.dueToday > 0 && (
              <Badge size="sm" variant="outline" color="gray" tt="none">
                {schedule.dueToday} due today
              </Badge>
            )}
            {schedule.missedThisWeek > 0 && (
              <Badge size="sm" variant="outline" color="red" tt="none">
                {schedule.missedThisWeek} missed this week
              </Badge>
            )}
          </Group>
        )}
        {count === 0 && (
          <Text size="sm" c="var(--mantine-color-error)" fw={500}>
            {NO_CARDS_NOTE}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

export function BoardsPanel() {
  const { org = '' } = useParams();
  const { data: user } = useUserData();
  const role = user ? roleOf(user) : 'viewer';
  const isAdmin = show.boardsWithoutCards(role);
  const editing = useEditMode() && isAdmin;
  const boards = useBoards();
  const used = useBoardsUsed();
  const scheduleCounts = useBoardScheduleCounts();
  const countsByBoard = new Map(scheduleCounts.data?.boards.map((b) => [b.boardID, b]) ?? []);
  const cards = useCards(isAdmin);
  const [query, setQuery] = useState('');
  const [form, setForm] = useState<{ board: Board | null } | null>(null);
  const [deleting, setDeleting] = useState<Board | null>(null);

  const all = boards.data?.boards ?? [];
  const visible = all.filter(
    (board) => (isAdmin || board.cardIDs.length > 0) && nameContains(board.name, query),
  );
  const errors = [
    boards.error && messageOf(boards.error, api.getBoards),
    cards.error && messageOf(cards.error, api.getCards),
  ]
    .filter(Boolean)
    .join(' ');
  const cardChoices = (cards.data?.cards ?? []).map((c) => ({ id: c.id, name: c.name }));
  const noBoards = boards.data && all.filter((b) => isAdmin || b.cardIDs.length > 0).length === 0;

  return (
    <Page title="Boards" hideTitle>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={1} size="h2">
          Boards
        </Title>
        <Group gap="md">
          {used.data && (
            <Text size="sm" c="dimmed" data-testid="boards-used">
              {used.data.used}/{used.data.total} Boards Used
            </Text>
          )}
          {all.some((b) => b.hasAnonymous) && (
            <Anchor component={Link} to={paths.anonymousBoards(org)} size="sm" underline="always">
              Anonymous Boards
            </Anchor>
          )}
        </Group>
      </Group>
      <TextInput
        aria-label="Search boards"
        placeholder="Search boards"
        leftSection={<SearchIcon size={16} />}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        maw={360}
      />
      <ErrorText message={errors || null} />
      {boards.isPending && <Loading label="Loading boards" />}

      {noBoards && !editing ? (
        <Paper withBorder p="xl" ta="center">
          {isAdmin ? (
            <Stack gap={4}>
              <Text fw={600}>You have not added any boards yet.</Text>
              <Text c="dimmed">Unlock admin mode from the menu.</Text>
            </Stack>
          ) : (
            <Text>Contact your administrator to create a board.</Text>
          )}
        </Paper>
      ) : (
        boards.data && (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
            {editing && (
              <UnstyledButton
                className={classes.create}
                onClick={() => setForm({ board: null })}
                aria-label="Create a new Board"
              >
                <Stack align="center" gap={6}>
                  <PlusIcon size={28} />
                  <Text fw={600}>Create a new Board</Text>
                  {noBoards && (
                    <Text size="sm" c="dimmed">
                      You have not added any boards yet. Use the + button to create a new board.
                    </Text>
                  )}
                </Stack>
              </UnstyledButton>
            )}
            {visible.map((board) => (
              <BoardTile
                key={board.id}
                org={org}
                board={board}
                editing={editing}
                schedule={countsByBoard.get(board.id)}
                onEdit={() => setForm({ board })}
                onDelete={() => setDeleting(board)}
              />
            ))}
          </SimpleGrid>
        )
      )}
      {boards.data && !noBoards && visible.length === 0 && (
        <Text c="dimmed" role="status">
          No boards match “{query}”.
        </Text>
      )}

      <BoardFormModal
        opened={form !== null}
        board={form?.board ?? null}
        boards={all}
        cards={cardChoices}
        onClose={() => setForm(null)}
      />
      <DeleteBoardModal board={deleting} onClose={() => setDeleting(null)} />
    </Page>
  );
}
