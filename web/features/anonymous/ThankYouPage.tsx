/**
 * The end of an anonymous evaluation, /q/{org}/boards/{board}/thank-you (SPEC §2). A visitor who came from
 * the QR code (the key travels in the history entry, never in this address) may evaluate another card of
 * the same board, for as long as the key still starts evaluations.
 */
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation, useParams } from 'react-router';
import { Page } from '../../components/Page.tsx';
import { paths } from '../../lib/paths.ts';
import { useAnonymousCards, type AnonymousAccess } from './api.ts';
import { CircleCheckIcon } from '../../components/icons.tsx';

export interface ThankYouState extends AnonymousAccess {
  cardName: string;
  feedbackGiven: boolean;
}

function stateOf(value: unknown): ThankYouState | null {
  if (!value || typeof value !== 'object') return null;
  const state = value as Partial<ThankYouState>;
  return typeof state.anonKey === 'string' &&
    typeof state.boardID === 'number' &&
    typeof state.orgName === 'string'
    ? (state as ThankYouState)
    : null;
}

export function ThankYouPage() {
  const { org = '', board = '' } = useParams();
  const from = stateOf(useLocation().state);
  const access = { orgName: from?.orgName ?? org, boardID: from?.boardID ?? 0, anonKey: from?.anonKey ?? '' };
  // Whether the key still starts evaluations: the selection page's own call, so its answer is ready there.
  const cards = useAnonymousCards(access, from !== null);
  const canContinue = from !== null && (cards.data?.cards.length ?? 0) > 0;

  return (
    <Page title="Thank You" size="sm" hideTitle>
      <Paper withBorder p={{ base: 'md', xs: 'xl' }} data-testid="thank-you">
        <Stack gap="md" align="center" ta="center">
          <CircleCheckIcon size={64} color="var(--mantine-color-green-filled)" />
          <Title order={1} size="h2">
            Thank you!
          </Title>
          <Text size="lg">
            {from?.cardName
              ? `Your evaluation of ${from.cardName} on ${board} has been recorded.`
              : 'Your evaluation has been recorded.'}
          </Text>
          {from?.feedbackGiven && <Text size="lg">Your feedback has been sent as well.</Text>}
          {canContinue && (
            <Button
              component={Link}
              to={paths.anonymousSelection(access.orgName, board, access.boardID, access.anonKey)}
              size="lg"
              fullWidth
            >
              Evaluate another card
            </Button>
          )}
          <Text size="sm" c="dimmed">
            You can close this page now.
          </Text>
        </Stack>
      </Paper>
    </Page>
  );
}
