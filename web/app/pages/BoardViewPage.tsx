/**
 * The board view, /q/{org}/boards/{board} (SPEC §2): the board's cards and their results; Evaluate and
 * Feedback for evaluators, the heading 'Recent Results' for others; the anonymous QR code beside them.
 */
import { Anchor, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { lazy, useCallback, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Board } from '../../../common/api/index.ts';
import { nameKey } from '../../../common/fieldRules.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { BoardQrCode } from '../../features/anonymous/BoardQrCode.tsx';
import { BoardResults } from '../../features/evaluations/BoardResults.tsx';
import { usePrefetchBoardEvaluations } from '../../features/evaluations/api.ts';
import { useRights } from '../../shared/permissions.ts';
import { useBoardCards, useBoards } from '../../shared/api/boards.ts';
import { RaiseActionButton } from '../../features/actions/RaiseActionButton.tsx';
import { ActionSlotsProvider } from './ActionSlotsProvider.tsx';
import { ScheduleSlotsProvider } from './ScheduleSlotsProvider.tsx';
import { OnDemand } from '../../components/OnDemand.tsx';

// Loaded when Feedback is first pressed (docs/decisions/0741).
const GiveFeedbackModal = lazy(() =>
  import('../../features/evaluations/feedback/GiveFeedbackModal.tsx').then((m) => ({
    default: m.GiveFeedbackModal,
  })),
);

export const BOARD_NOT_FOUND = 'Board not found';
export const NO_CARDS = 'This board does not have any cards.';
export const ASSIGN_CARDS = 'Assign cards to the board.';

/** The board named in the path: its exact name, else the same name in another case. */
export function findBoard(boards: Board[] | undefined, name: string): Board | undefined {
  return boards?.find((b) => b.name === name) ?? boards?.find((b) => nameKey(b.name) === nameKey(name));
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });

function BoardView({ org, board }: { org: string; board: Board }) {
  const rights = useRights();
  const cards = useBoardCards(board.id);
  usePrefetchBoardEvaluations(board.id);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  // The QR panel sits under the results on a phone: drawn before them, it would be pushed a screen down.
  const [resultsSettled, setResultsSettled] = useState(false);
  const settle = useCallback(() => setResultsSettled(true), []);
  // The same array while the answer is, so the squares are not drawn again for a new one (decision 0763).
  const sorted = useMemo(() => [...(cards.data?.cards ?? [])].sort(byName), [cards.data]);
  const withQr = board.hasAnonymous && sorted.length > 0;

  const actions = rights.isEvaluator ? (
    <Group gap="xs">
      <Button component={Link} to={paths.evaluationSelection(org, board.name, board.id)} size="md">
        Evaluate
      </Button>
      <Button variant="default" size="md" onClick={() => setFeedbackOpen(true)}>
        Feedback
      </Button>
      {rights.isAdmin && (
        <RaiseActionButton
          size="md"
          label="Raise action on this board"
          source={() => ({ boardID: board.id, title: '' })}
        />
      )}
    </Group>
  ) : undefined;

  let body;
  if (cards.isPending) body = <Loading label="Loading the board's cards" />;
  else if (cards.isError) body = <ErrorText message={messageOf(cards.error, api.getCardsByBoardId)} />;
  else if (sorted.length === 0) {
    body = (
      <Paper withBorder p="xl" ta="center">
        <Stack gap={6} align="center">
          <Text fw={600}>{NO_CARDS}</Text>
          <Anchor component={Link} to={paths.home(org)} underline="always">
            {ASSIGN_CARDS}
          </Anchor>
        </Stack>
      </Paper>
    );
  } else {
    const results = (
      <BoardResults
        boardID={board.id}
        cards={sorted}
        headingOrder={rights.isEvaluator ? 2 : 3}
        wide={!withQr}
        onSettled={settle}
      />
    );
    body = withQr ? (
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 9 }}>{results}</Grid.Col>
        <Grid.Col span={{ base: 12, md: 3 }}>
          {resultsSettled && (
            <Paper withBorder p="md" component="aside" aria-labelledby="anonymous-heading">
              <Stack gap="xs" align="center">
                <Title order={2} size="h5" id="anonymous-heading" ta="center">
                  Evaluate without an account
                </Title>
                <Text size="sm" c="dimmed" ta="center">
                  Scan the code with a phone to evaluate this board anonymously.
                </Text>
                <BoardQrCode boardID={board.id} boardName={board.name} size={168} />
              </Stack>
            </Paper>
          )}
        </Grid.Col>
      </Grid>
    ) : (
      results
    );
  }

  return (
    <Page title={board.name} actions={actions} size="xl">
      {!rights.isEvaluator && (
        <Title order={2} size="h3">
          Recent Results
        </Title>
      )}
      <ActionSlotsProvider boardID={board.id}>
        <ScheduleSlotsProvider boardID={board.id}>{body}</ScheduleSlotsProvider>
      </ActionSlotsProvider>
      {rights.isEvaluator && (
        <OnDemand when={feedbackOpen}>
          <GiveFeedbackModal
            opened={feedbackOpen}
            boardID={board.id}
            onClose={() => setFeedbackOpen(false)}
          />
        </OnDemand>
      )}
    </Page>
  );
}

export function BoardViewPage() {
  const { org = '', board: name = '' } = useParams();
  const boards = useBoards();
  const board = findBoard(boards.data?.boards, name);
  if (boards.isPending) {
    return (
      <Page title={name}>
        <Loading label="Loading the board" />
      </Page>
    );
  }
  if (!board) {
    return (
      <Page title={boards.isError ? name : BOARD_NOT_FOUND}>
        {boards.isError ? (
          <ErrorText message={messageOf(boards.error, api.getBoards)} />
        ) : (
          <Anchor component={Link} to={paths.home(org)} underline="always">
            Back to the boards
          </Anchor>
        )}
      </Page>
    );
  }
  return <BoardView key={board.id} org={org} board={board} />;
}
