/**
 * Evaluation selection, /q/{org}/boards/{board}/{boardID}/eval/ (SPEC §2): the board's cards by name as
 * large targets; choosing one starts an evaluation (add-evaluation) and opens it.
 */
import { Anchor, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, type Card } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { useBoardCards } from '../../shared/api/boards.ts';
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
  const [choosing, setChoosing] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const sorted = [...(cards.data?.cards ?? [])].sort((a, b) =>
    a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }),
  );

  const choose = async (card: Card) => {
    if (boardID === null || start.isPending) return;
    setFailure(null);
    setChoosing(card.id);
    try {
      const { id } = await start.mutateAsync({ boardID, cardID: card.id });
      // The evaluation page need not ask whether this new evaluation is already complete.
      void navigate(paths.evaluation(org, board, boardID, card.name, card.id, id), {
        state: { started: true },
      });
    } catch (error) {
      setFailure(messageOf(error, api.addEvaluation));
      setChoosing(null);
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
