/**
 * The Actions tab, /q/{org}/home/actions (evaluators and above, issue 12): my actions (assigned to or raised
 * by me) and, for administrators, all of the organisation's; filtered by status, board, assignee and due
 * date; the most urgent first with 'load more' by keyset paging; overdue ones say so in words and with a
 * mark; the Excel download of the same filter. /home/actions/{id} opens one (the emails link there).
 */
import {
  Button,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ACTION_STATUSES, seesEveryAction, type ActionStatus } from '../../../common/actions.ts';
import { api, type Action } from '../../../common/api/index.ts';
import { roleOf } from '../../../common/roles.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { DownloadIcon } from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { saveDownload } from '../../lib/download.ts';
import { paths } from '../../lib/paths.ts';
import { useUserData } from '../../lib/queries.ts';
import { useBoards } from '../../shared/api/boards.ts';
import { browserTimeZone } from '../../shared/timeZone.ts';
import { DueText, StatusBadge } from './ActionBadges.tsx';
import { ActionModal } from './ActionDetail.tsx';
import { downloadActionsExcel, useActionsList, useAssignees, type ActionsListFilter } from './api.ts';

export const NO_ACTIONS = 'No actions found';

function ActionRow({ action, onOpen }: { action: Action; onOpen: () => void }) {
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      data-testid="action-row"
      data-overdue={action.isOverdue || undefined}
      style={action.isOverdue ? { borderLeft: '4px solid var(--mantine-color-red-filled)' } : undefined}
    >
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs">
            <StatusBadge action={action} />
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {action.title}
            </Text>
          </Group>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {action.boardName}
            {action.cardName ? ` › ${action.cardName}` : ''} · {action.priority} priority · Assigned to{' '}
            {action.isAssignee ? 'you' : action.assigneeName}
          </Text>
          <Text size="sm" fw={action.isOverdue ? 700 : undefined}>
            Due <DueText action={action} />
          </Text>
        </Stack>
        <Button variant="default" size="xs" onClick={onOpen} aria-label={`Open ${action.title}`}>
          Open
        </Button>
      </Group>
    </Paper>
  );
}

function ExcelDownload({ filter }: { filter: ActionsListFilter }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Stack gap={4} align="flex-end">
      <Button
        variant="default"
        leftSection={<DownloadIcon size={16} />}
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setFailure(null);
          try {
            saveDownload(await downloadActionsExcel({ ...filter, timeZone: browserTimeZone() }));
          } catch (error) {
            setFailure(messageOf(error, api.getActionsExcel));
          } finally {
            setBusy(false);
          }
        }}
      >
        Download Excel
      </Button>
      <ErrorText message={failure} />
    </Stack>
  );
}

const ANY = '';

export function ActionsTab() {
  const { org = '', actionID } = useParams();
  const navigate = useNavigate();
  const { data: user } = useUserData();
  const isAdmin = user ? seesEveryAction(roleOf(user)) : false;
  const boards = useBoards();
  const assignees = useAssignees();
  const [scope, setScope] = useState<'mine' | 'all'>('mine');
  const [status, setStatus] = useState<ActionStatus | ''>('Open');
  const [boardID, setBoardID] = useState(ANY);
  const [assigneeID, setAssigneeID] = useState(ANY);
  const [dueFrom, setDueFrom] = useState('');
  const [dueTo, setDueTo] = useState('');
  const filter: ActionsListFilter = {
    scope: isAdmin ? scope : 'mine',
    status: status || null,
    boardID: boardID ? Number(boardID) : null,
    assigneeID: assigneeID ? Number(assigneeID) : null,
    dueFrom: dueFrom || null,
    dueTo: dueTo || null,
  };
  const list = useActionsList(filter);
  const rows = list.data?.pages.flat() ?? [];
  const opened = actionID && /^\d+$/.test(actionID) ? Number(actionID) : null;

  return (
    <Page title="Actions" actions={<ExcelDownload filter={filter} />}>
      <Paper withBorder p="sm" component="section" aria-label="Filter">
        <Stack gap="sm">
          {isAdmin && (
            <SegmentedControl
              aria-label="Whose actions"
              value={scope}
              onChange={(value) => setScope(value as 'mine' | 'all')}
              data={[
                { value: 'mine', label: 'My actions' },
                { value: 'all', label: 'All actions' },
              ]}
              style={{ alignSelf: 'flex-start' }}
            />
          )}
          <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
            <NativeSelect
              label="Status"
              value={status}
              onChange={(event) => setStatus(event.currentTarget.value as ActionStatus | '')}
              data={[
                { value: ANY, label: 'Any status' },
                ...ACTION_STATUSES.map((s) => ({ value: s, label: s })),
              ]}
            />
            <NativeSelect
              label="Board"
              value={boardID}
              onChange={(event) => setBoardID(event.currentTarget.value)}
              data={[
                { value: ANY, label: 'Any board' },
                ...(boards.data?.boards ?? []).map((b) => ({ value: String(b.id), label: b.name })),
              ]}
            />
            <NativeSelect
              label="Assignee"
              value={assigneeID}
              onChange={(event) => setAssigneeID(event.currentTarget.value)}
              data={[
                { value: ANY, label: 'Anyone' },
                ...(assignees.data?.assignees ?? []).map((a) => ({ value: String(a.id), label: a.email })),
              ]}
            />
            <TextInput
              label="Due from"
              type="date"
              value={dueFrom}
              onChange={(e) => setDueFrom(e.currentTarget.value)}
            />
            <TextInput
              label="Due to"
              type="date"
              value={dueTo}
              onChange={(e) => setDueTo(e.currentTarget.value)}
            />
          </SimpleGrid>
        </Stack>
      </Paper>
      <ErrorText message={list.error && messageOf(list.error, api.getActions)} />
      {list.isPending ? (
        <Loading label="Loading actions" />
      ) : rows.length === 0 ? (
        !list.isError && (
          <Text role="status" ta="center" py="lg" fw={600}>
            {NO_ACTIONS}
          </Text>
        )
      ) : (
        <Stack gap="xs">
          <Title order={2} className="visually-hidden">
            Results
          </Title>
          <Stack component="ul" gap="xs" p={0} m={0} aria-label="Actions" style={{ listStyle: 'none' }}>
            {rows.map((action) => (
              <ActionRow
                key={action.id}
                action={action}
                onOpen={() => navigate(paths.action(org, action.id))}
              />
            ))}
          </Stack>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" role="status" data-testid="shown-count">
              Showing {rows.length} {rows.length === 1 ? 'action' : 'actions'}
            </Text>
            {list.hasNextPage && (
              <Button
                variant="default"
                loading={list.isFetchingNextPage}
                onClick={() => list.fetchNextPage()}
              >
                Load more
              </Button>
            )}
          </Group>
        </Stack>
      )}
      <ActionModal actionID={opened} onClose={() => navigate(paths.actionsTab(org))} />
    </Page>
  );
}
