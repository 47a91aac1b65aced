/**
 * Anonymous evaluation of one card, /q/{org}/boards/{board}/{boardID}/eval/{card}/{cardID}/{evalID}/{anonKey}
 * (SPEC §2). The card's items in order; each Pass/Fail item answered Pass, Fail or N/A (where allowed) with
 * big buttons, what is still unanswered marked, Submit (add-results-anon) kept under the thumb. Then an offer
 * to give feedback (add-feedback-anon) or skip, and the thank-you page. No sign-in, ever.
 */
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { api } from '../../../common/api/index.ts';
import { DrawnInSlices } from '../../components/DrawnInSlices.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { liveItems } from '../../features/evaluations/answers.ts';
import { EvaluationForm, type SignOff } from '../../features/evaluations/EvaluationForm.tsx';
import { uploadAnonymousSignature } from '../../features/evaluations/signOff/upload.ts';
import { anonymousEvidence } from '../../features/evaluations/evidence/targets.ts';
import { readEvaluationPath } from '../../shared/readings.ts';
import { NotFoundPage } from '../../shared/NotFoundPage.tsx';
import { AnonymousProblem } from '../../features/anonymous/AnonymousProblem.tsx';
import {
  useAddAnonymousFeedback,
  useAnonymousBoard,
  useAnonymousCard,
  useCancelAnonymousEvaluation,
  useCompleteAnonymousEvaluation,
  type AnonymousAccess,
} from '../../features/anonymous/api.ts';
import { CircleCheckIcon } from '../../components/icons.tsx';
import { OnDemand } from '../../components/OnDemand.tsx';
import type { ThankYouState } from '../../features/anonymous/ThankYouPage.tsx';
import { lazyWithStyles } from '../../components/lazyWithStyles.ts';

// Loaded when Give Feedback is first pressed (docs/decisions/0741).
const FeedbackModal = lazyWithStyles(() =>
  import('../../features/evaluations/feedback/GiveFeedbackModal.tsx').then((m) => ({
    default: m.FeedbackModal,
  })),
);

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

function Evaluation({ access, cardID, evalID }: { access: AnonymousAccess; cardID: number; evalID: number }) {
  const navigate = useNavigate();
  const location = useLocation();
  const submitted = (location.state as EvaluationState | null)?.submitted === true;
  const board = useAnonymousBoard(access);
  const card = useAnonymousCard(access, cardID);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const [signatureFailure, setSignatureFailure] = useState<string | null>(null);
  const send = useCompleteAnonymousEvaluation();
  const addFeedback = useAddAnonymousFeedback();
  const cancel = useCancelAnonymousEvaluation();
  const { orgName, boardID, anonKey } = access;
  const evidence = useMemo(
    () => anonymousEvidence({ orgName, boardID, anonKey }, evalID),
    [orgName, boardID, anonKey, evalID],
  );

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
  const items = liveItems(card.data.card.cardItems);

  const toThankYou = (feedbackGiven: boolean) =>
    navigate(paths.thankYou(access.orgName, boardName), {
      state: { ...access, cardName, feedbackGiven } satisfies ThankYouState,
    });

  const onSubmit = async (
    results: Parameters<typeof send.mutate>[0]['results'],
    _pass: boolean,
    signOff?: SignOff,
  ) => {
    setSignatureFailure(null);
    if (signOff) {
      try {
        await uploadAnonymousSignature(access, evalID, signOff.signature);
      } catch (error) {
        setSignatureFailure(messageOf(error, api.addEvaluationSignatureAnon));
        return;
      }
    }
    send.mutate(
      { ...access, evalID, results, signedName: signOff?.signedName },
      {
        onSuccess: () => {
          void navigate(location.pathname, {
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
              <CircleCheckIcon size={32} />
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
        <OnDemand when={feedbackOpen}>
          <FeedbackModal
            opened={feedbackOpen}
            call={api.addFeedbackAnon}
            send={(content) => addFeedback.mutateAsync({ ...access, evalID, content })}
            onClose={() => setFeedbackOpen(false)}
            onSent={() => toThankYou(true)}
          />
        </OnDemand>
      </Page>
    );
  }

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
      <DrawnInSlices fallback={<Loading label="Loading the card" />}>
        <EvaluationForm
          items={items}
          submitting={send.isPending}
          failure={signatureFailure ?? (send.error ? messageOf(send.error, api.addResultsAnon) : null)}
          onSubmit={(results, pass, signOff) => void onSubmit(results, pass, signOff)}
          evidence={evidence}
          signOffRequired={card.data.card.signOffRequired}
        />
      </DrawnInSlices>
    </Page>
  );
}
