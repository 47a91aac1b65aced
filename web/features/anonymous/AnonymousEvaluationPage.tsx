/**
 * Anonymous evaluation of one card, /q/{org}/boards/{board}/{boardID}/eval/{card}/{cardID}/{evalID}/{anonKey}
 * (SPEC §2). The card's items in order; each Pass/Fail item answered Pass, Fail or N/A (where allowed) with
 * big buttons, what is still unanswered marked, Submit (add-results-anon) kept under the thumb. Then an offer
 * to give feedback (add-feedback-anon) or skip, and the thank-you page. No sign-in, ever.
 */
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { api, type CardItem } from '../../../common/api/index.ts';
import type { ResultInput } from '../../../common/api/inputs.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';
import { paths } from '../../lib/paths.ts';
import { readEvaluationPath } from '../evaluations/readings.ts';
import { NotFoundPage } from '../misc/NotFoundPage.tsx';
import { AnonymousProblem } from './AnonymousProblem.tsx';
import { AnswerItem, isAnswerable, needsAnswer, type Answer } from './AnswerItem.tsx';
import { useAnonymousBoard, useAnonymousCard, type AnonymousAccess } from './api.ts';
import { GiveFeedbackModal } from './GiveFeedbackModal.tsx';
import classes from './Anonymous.module.css';
import { CircleCheckMark } from './marks.tsx';
import type { ThankYouState } from './ThankYouPage.tsx';

export const RESULTS_SUBMITTED = 'Results submitted';

/** Kept in the history entry, so a reload after Submit shows the feedback offer, not the form again. */
interface EvaluationState {
  submitted?: boolean;
}

export function AnonymousEvaluationPage() {
  const params = useParams();
  const reading = readEvaluationPath(params);
  if (reading.kind !== 'anonymous') return <NotFoundPage />;
  return (
    <Evaluation
      key={`${reading.evalID}/${reading.anonKey}`}
      access={{ orgName: params.org ?? '', boardID: reading.boardID, anonKey: reading.anonKey }}
      cardID={reading.cardID}
      evalID={reading.evalID}
    />
  );
}

function resultsOf(items: CardItem[], answers: Record<number, Answer>): ResultInput[] {
  return items.filter(isAnswerable).map((item) => {
    const answer = answers[item.id];
    if (item.type === 'pass_fail') {
      return answer?.choice === 'na'
        ? { item_id: item.id, pass: null, na: true }
        : { item_id: item.id, pass: answer?.choice === 'pass', na: false };
    }
    if (item.type === 'text') return { item_id: item.id, text_result: answer?.text?.trim() || null };
    return { item_id: item.id, numeric_result: answer?.numeric ?? null };
  });
}

function Evaluation({ access, cardID, evalID }: { access: AnonymousAccess; cardID: number; evalID: number }) {
  const navigate = useNavigate();
  const location = useLocation();
  const submitted = (location.state as EvaluationState | null)?.submitted === true;
  const board = useAnonymousBoard(access);
  const card = useAnonymousCard(access, cardID);
  const [answers, setAnswers] = useState<Record<number, Answer>>({});
  const [triedSubmit, setTriedSubmit] = useState(false);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const send = useCallMutation(api.addResultsAnon);
  const cancel = useCallMutation(api.deleteEvaluationAnon);

  const failed = board.error ?? card.error;
  if (failed) {
    return (
      <AnonymousProblem
        error={failed}
        call={board.error ? api.getBoardAnon : api.getCardAnon}
        onRetry={() => {
          void board.refetch();
          void card.refetch();
        }}
      />
    );
  }
  if (!board.data || !card.data) {
    return (
      <Page title="Evaluation" size="sm" hideTitle>
        <Loading label="Loading the card" />
      </Page>
    );
  }

  const boardName = board.data.board.name;
  const cardName = card.data.card.name;
  const items = card.data.card.cardItems
    .filter((item) => !item.isDeleted)
    .sort((a, b) => a.order - b.order || a.id - b.id);
  const answerable = items.filter(isAnswerable);
  const missing = items.filter((item) => needsAnswer(item, answers[item.id]));
  const required = items.filter((item) => item.type === 'pass_fail').length;

  const toThankYou = (feedbackGiven: boolean) =>
    navigate(paths.thankYou(access.orgName, boardName), {
      state: { ...access, cardName, feedbackGiven } satisfies ThankYouState,
    });

  const onSubmit = () => {
    if (missing.length > 0) {
      setTriedSubmit(true);
      const first = document.getElementById(`item-${missing[0]!.id}`);
      first?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      first?.querySelector<HTMLInputElement>('input[type="radio"]')?.focus({ preventScroll: true });
      return;
    }
    send.mutate(
      { ...access, evalID, results: resultsOf(items, answers) },
      {
        onSuccess: () => {
          navigate(location.pathname, {
            replace: true,
            state: { submitted: true } satisfies EvaluationState,
          });
          window.scrollTo({ top: 0 });
        },
      },
    );
  };

  const header = (
    <Stack gap={2}>
      <Text size="sm" c="dimmed" fw={600}>
        {boardName}
      </Text>
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {cardName}
      </Title>
    </Stack>
  );

  if (submitted) {
    return (
      <Page title={cardName} size="sm" hideTitle>
        {header}
        <Paper withBorder p="lg" data-testid="results-submitted">
          <Stack gap="md">
            <Group gap="sm" wrap="nowrap">
              <CircleCheckMark size={32} />
              <Title order={2} size="h3">
                {RESULTS_SUBMITTED}
              </Title>
            </Group>
            <Text size="lg">Would you like to give feedback on this card?</Text>
            <Stack gap="sm">
              <Button size="xl" fullWidth onClick={() => setFeedbackOpen(true)}>
                Give Feedback
              </Button>
              <Button size="xl" fullWidth variant="default" onClick={() => toThankYou(false)}>
                Skip
              </Button>
            </Stack>
          </Stack>
        </Paper>
        <GiveFeedbackModal
          opened={feedbackOpen}
          access={access}
          evalID={evalID}
          onClose={() => setFeedbackOpen(false)}
          onSent={() => toThankYou(true)}
        />
      </Page>
    );
  }

  const answered = required - missing.length;
  return (
    <Page title={cardName} size="sm" hideTitle>
      <Group justify="space-between" align="flex-end" gap="sm">
        {header}
        <Button
          variant="default"
          loading={cancel.isPending}
          disabled={send.isPending}
          onClick={() =>
            cancel.mutate(
              { ...access, cardID, evalID },
              {
                onSuccess: () =>
                  navigate(
                    paths.anonymousSelection(access.orgName, boardName, access.boardID, access.anonKey),
                    { replace: true },
                  ),
              },
            )
          }
        >
          Choose another card
        </Button>
      </Group>
      <ErrorText message={cancel.error ? messageOf(cancel.error, api.deleteEvaluationAnon) : null} />
      {answerable.length === 0 && <Text>This card has nothing to answer. Submit to record it.</Text>}
      <Stack gap="md">
        {items.map((item) => (
          <AnswerItem
            key={item.id}
            item={item}
            number={answerable.indexOf(item) + 1}
            total={answerable.length}
            answer={answers[item.id]}
            showMissing={triedSubmit}
            onChange={(answer) => setAnswers((current) => ({ ...current, [item.id]: answer }))}
          />
        ))}
      </Stack>
      <div className={classes.bar}>
        <Stack gap="xs">
          <ErrorText message={send.error ? messageOf(send.error, api.addResultsAnon) : null} />
          {required > 0 && (
            <Text
              size="sm"
              fw={600}
              ta="center"
              c={triedSubmit && missing.length ? 'var(--mantine-color-error)' : undefined}
              aria-live="polite"
              data-testid="progress"
            >
              {missing.length === 0
                ? `All ${required} checks answered`
                : `${answered} of ${required} answered${triedSubmit ? ` · ${missing.length} still to answer` : ''}`}
            </Text>
          )}
          <Button size="xl" fullWidth onClick={onSubmit} loading={send.isPending} disabled={cancel.isPending}>
            Submit
          </Button>
        </Stack>
      </div>
    </Page>
  );
}
