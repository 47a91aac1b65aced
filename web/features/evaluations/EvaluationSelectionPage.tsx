/**
 * Evaluation selection, /q/{org}/boards/{board}/{boardID}/eval/ (SPEC §2): the board's cards by name as
 * large targets; choosing one starts an evaluation (add-evaluation) and opens it.
 */
import { Anchor, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, type Card } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { ApiError, messageOf } from '../../lib/api.ts';
import { cardQuery } from '../../shared/api/cards.ts';
import { paths } from '../../lib/paths.ts';
import { useBoardCards } from '../../shared/api/boards.ts';
import { byName } from '../../shared/byName.ts';
import { RoleGate } from '../../shared/gates/RoleGate.tsx';
import { useStartEvaluation } from './api.ts';
import classes from './EvaluationSelectionPage.module.css';

const asId = (value: string | undefined) => (value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null);

const toAnswer = (count: number) => (count === 1 ? '1 item to answer' : `${count} items to answer`);

function Selection() {
  const { org = '', board = '', boardID: boardParam } = useParams();
  const boardID = asId(boardParam);
  const navigate = useNavigate();
  const cards = useBoardCards(boardID);
  const start = useStartEvaluation();
  const queryClient = useQueryClient();
  const [choosing, setChoosing] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const sorted = [...(cards.data?.cards ?? [])].sort(byName);

  /**
   * Without a network the evaluation starts when it is sent (docs/decisions/0730): the page opens the path
   * that names no evaluation, with the card as this board's list last showed it.
   */
  const startOnDevice = (card: Card) => {
    if (boardID === null) return;
    if (!queryClient.getQueryData(cardQuery(card.id).queryKey))
      queryClient.setQueryData(cardQuery(card.id).queryKey, { card });
    void navigate(paths.evaluationToStart(org, boardID, card.id));
  };

  const choose = async (card: Card) => {
    if (boardID === null || start.isPending) return;
    setFailure(null);
    if (!navigator.onLine) return startOnDevice(card);
    setChoosing(card.id);
    try {
      const { id } = await start.mutateAsync({ boardID, cardID: card.id });
      // The evaluation page need not ask whether this new evaluation is already complete.
      void navigate(paths.evaluation(org, board, boardID, card.name, card.id, id), {
        state: { started: true },
      });
    } catch (error) {
      setChoosing(null);
      if (error instanceof ApiError && error.status === 0) return startOnDevice(card);
      setFailure(messageOf(error, api.addEvaluation));
    }
  };

  return (
    <Page title="Choose a Card" size="md">
      <Text c="dimmed" mt={-8}>
        {board}
      </Text>
      <ErrorText
        message={
          boardID === null
            ? 'Board not found'
            : (failure ?? (cards.error && messageOf(cards.error, api.getCardsByBoardId)))
        }
      />
      {cards.isPending && boardID !== null && <Loading label="Loading the cards" />}
      {cards.data && sorted.length === 0 && <Text>This board does not have any cards.</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {sorted.map((card) => (
          <UnstyledButton
            key={card.id}
            className={classes.choice}
            onClick={() => choose(card)}
            disabled={start.isPending}
            aria-busy={choosing === card.id || undefined}
          >
            <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }}>
              {card.name}
            </Text>
            <Text size="sm" c="dimmed">
              {choosing === card.id
                ? 'Starting…'
                : toAnswer(card.cardItems.filter((i) => !i.isDeleted && i.type !== 'instruction').length)}
            </Text>
          </UnstyledButton>
        ))}
      </SimpleGrid>
      <Anchor component={Link} to={paths.board(org, board)} underline="always">
        Back to the board
      </Anchor>
    </Page>
  );
}

export function EvaluationSelectionPage() {
  return (
    <RoleGate allow="evaluateButtons">
      <Selection />
    </RoleGate>
  );
}
