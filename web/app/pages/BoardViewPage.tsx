/**
 * The board view, /q/{org}/boards/{board} (SPEC §2): the board's cards and their results; Evaluate and
 * Feedback for evaluators, the heading 'Recent Results' for others; the anonymous QR code beside them.
 */
import { Anchor, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
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
import { byName } from '../../shared/byName.ts';
import { useRights } from '../../shared/permissions.ts';
import { useBoardCards, useBoards } from '../../shared/api/boards.ts';
import { RaiseActionButton } from '../../features/actions/RaiseActionButton.tsx';
import { ActionSlotsProvider } from './ActionSlotsProvider.tsx';
import { ScheduleSlotsProvider } from './ScheduleSlotsProvider.tsx';
import { OnDemand } from '../../components/OnDemand.tsx';
import { lazyWithStyles } from '../../components/lazyWithStyles.ts';

// Loaded when Feedback is first pressed (docs/decisions/0741).
const GiveFeedbackModal = lazyWithStyles(() =>
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

/** Evaluate, Feedback and (for admins) Raise action, beside the board's title: evaluators only. */
function BoardActions({ org, board }: { org: string; board: Board }) {
  const rights = useRights();
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  if (!rights.isEvaluator) return null;
  return (
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
      <OnDemand when={feedbackOpen}>
        <GiveFeedbackModal opened={feedbackOpen} boardID={board.id} onClose={() => setFeedbackOpen(false)} />
      </OnDemand>
    </Group>
  );
}

function BoardView({ org, board }: { org: string; board: Board }) {
  const rights = useRights();
  const cards = useBoardCards(board.id);
  usePrefetchBoardEvaluations(board.id);
  // The QR panel sits under the results on a phone: drawn before them, it would be pushed a screen down.
  const [resultsSettled, setResultsSettled] = useState(false);
  const settle = useCallback(() => setResultsSettled(true), []);
  // The same array while the answer is, so the squares are not drawn again for a new one (decision 0763).
  const sorted = useMemo(() => [...(cards.data?.cards ?? [])].sort(byName), [cards.data]);
  const withQr = board.hasAnonymous && sorted.length > 0;

  // A refresh that failed (the network gone as it was asked, the server down) leaves the cards last seen on
  // screen, with its message above them, as the results below do: not the message alone.
  const refreshFailed = cards.isError && cards.data !== undefined;
  let body;
  if (cards.isPending) body = <Loading label="Loading the board's cards" />;
  else if (!cards.data) body = <ErrorText message={messageOf(cards.error, api.getCardsByBoardId)} />;
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
    <>
      {!rights.isEvaluator && (
        <Title order={2} size="h3">
          Recent Results
        </Title>
      )}
      {refreshFailed && <ErrorText message={messageOf(cards.error, api.getCardsByBoardId)} />}
      <ActionSlotsProvider boardID={board.id}>
        <ScheduleSlotsProvider boardID={board.id}>{body}</ScheduleSlotsProvider>
      </ActionSlotsProvider>
    </>
  );
}

/**
 * One Page whatever the boards' state, so its heading (the path's name until the boards come) stays the same
 * element: drawn again as another, it would be the page's largest paint a second time, after get-boards.
 */
export function BoardViewPage() {
  const { org = '', board: name = '' } = useParams();
  const boards = useBoards();
  const board = findBoard(boards.data?.boards, name);
  let title = name;
  let body;
  if (boards.isPending) body = <Loading label="Loading the board" />;
  else if (board) {
    title = board.name;
    body = <BoardView key={board.id} org={org} board={board} />;
  } else if (boards.isError) body = <ErrorText message={messageOf(boards.error, api.getBoards)} />;
  else {
    title = BOARD_NOT_FOUND;
    body = (
      <Anchor component={Link} to={paths.home(org)} underline="always">
        Back to the boards
      </Anchor>
    );
  }
  return (
    <Page title={title} size="xl" actions={board && <BoardActions key={board.id} org={org} board={board} />}>
      {body}
    </Page>
  );
}
