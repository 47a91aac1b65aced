/**
 * Anonymous selection, /q/{org}/boards/{board}/{boardID}/eval/{anonKey} (SPEC §2): what a visitor sees after
 * scanning a board's QR code. No sign-in, ever: the key is the only credential. The board's name heads the
 * page and its cards are large touch targets; choosing one starts an evaluation (add-evaluation-anon) and
 * opens it.
 */
import { Button, Stack, Text } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { NotFoundPage } from '../../shared/NotFoundPage.tsx';
import { AnonymousProblem, idFrom } from './AnonymousProblem.tsx';
import {
  useAnonymousBoard,
  useAnonymousCards,
  useStartAnonymousEvaluation,
  type AnonymousAccess,
} from './api.ts';
import classes from './Anonymous.module.css';
import { ChevronRightIcon } from '../../components/icons.tsx';

export const NO_CARDS = 'This board does not have any cards.';

export function AnonymousSelectionPage() {
  const { org = '', boardID: boardSegment, anonKey = '' } = useParams();
  const boardID = idFrom(boardSegment);
  if (!boardID) return <NotFoundPage />;
  return <Selection access={{ orgName: org, boardID, anonKey }} />;
}

function Selection({ access }: { access: AnonymousAccess }) {
  const navigate = useNavigate();
  const board = useAnonymousBoard(access);
  const cards = useAnonymousCards(access);
  const start = useStartAnonymousEvaluation();

  const failed = board.error ?? cards.error;
  if (failed) {
    return (
      <AnonymousProblem
        error={failed}
        call={board.error ? api.getBoardAnon : api.getCardsByBoardIdAnon}
        onRetry={() => {
          void board.refetch();
          void cards.refetch();
        }}
      />
    );
  }
  if (!board.data || !cards.data) {
    return (
      <Page title="Choose a Card" size="sm" hideTitle>
        <Loading label="Loading the board" />
      </Page>
    );
  }

  const boardName = board.data.board.name;
  const list = cards.data.cards;
  return (
    <Page title={boardName} size="sm">
      {list.length === 0 ? (
        <Text size="lg">{NO_CARDS}</Text>
      ) : (
        <Stack gap="sm">
          <Text size="lg" id="choose-card">
            Choose a card to evaluate.
          </Text>
          <ErrorText message={start.error ? messageOf(start.error, api.addEvaluationAnon) : null} />
          <Stack gap="sm" component="ul" className={classes.cardList} aria-labelledby="choose-card">
            {list.map((card) => {
              const starting = start.isPending && start.variables?.cardID === card.id;
              return (
                <li key={card.id}>
                  <Button
                    size="xl"
                    fullWidth
                    variant="default"
                    className={classes.cardButton}
                    justify="space-between"
                    rightSection={<ChevronRightIcon />}
                    loading={starting}
                    disabled={start.isPending && !starting}
                    onClick={() =>
                      start.mutate(
                        { ...access, cardID: card.id },
                        {
                          onSuccess: ({ id: evalID }) =>
                            navigate(
                              paths.anonymousEvaluation(
                                access.orgName,
                                boardName,
                                access.boardID,
                                card.name,
                                card.id,
                                evalID,
                                access.anonKey,
                              ),
                            ),
                        },
                      )
                    }
                  >
                    {card.name}
                  </Button>
                </li>
              );
            })}
          </Stack>
        </Stack>
      )}
    </Page>
  );
}
