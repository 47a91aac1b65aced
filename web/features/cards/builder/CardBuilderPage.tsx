/**
 * The card builder (SPEC §2): home/cards/new names a new card; home/cards/new/{cardID} and
 * home/cards/edit/{cardID} build it: rename, items (add, edit with rich text, reorder by drag or keyboard,
 * N/A allowed, delete), and the boards it is on. Each change is saved as it is made.
 */
import { Alert, Button, Paper, Stack } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { api } from '../../../../common/api/index.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { Page } from '../../../components/Page.tsx';
import { messageOf } from '../../../lib/api.ts';
import { paths } from '../../../lib/paths.ts';
import { useCard } from '../../../shared/api/cards.ts';
import { CardBoards } from './CardBoards.tsx';
import { Items } from './Items.tsx';
import { NewCard } from './NewCard.tsx';
import { RenameForm } from './RenameForm.tsx';
import { SignOffSwitch } from './SignOffSwitch.tsx';

export function CardBuilderPage() {
  const { org = '', cardID } = useParams();
  const id = cardID && /^\d+$/.test(cardID) ? Number(cardID) : null;
  const card = useCard(id);
  if (cardID === undefined) return <NewCard org={org} />;
  if (id === null)
    return (
      <Page title="Card not found">
        <Alert color="red">The card was not found.</Alert>
      </Page>
    );

  return (
    <Page
      title={card.data ? card.data.card.name : 'Card Builder'}
      size="md"
      actions={
        <Button component={Link} to={paths.cards(org)} variant="default">
          Done
        </Button>
      }
    >
      {card.isPending && <Loading label="Loading the card" />}
      {card.isError && <ErrorText message={messageOf(card.error, api.getCard)} />}
      {card.data && (
        <>
          <Paper withBorder p="md">
            <Stack gap="md">
              <RenameForm key={card.data.card.name} card={card.data.card} />
              <CardBoards card={card.data.card} />
              <SignOffSwitch card={card.data.card} />
            </Stack>
          </Paper>
          <Items card={card.data.card} />
        </>
      )}
    </Page>
  );
}
