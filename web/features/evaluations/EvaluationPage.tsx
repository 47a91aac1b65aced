/**
 * One evaluation, in either reading of its path (docs/decisions/0004-evaluation-paths.md): the card's
 * items to answer, Submit (add-results), then an offer to give feedback, then back to the board or to a
 * same-site `redirect`. An evaluation already complete opens read-only.
 */
import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, type ResultInput } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { DrawnInSlices } from '../../components/DrawnInSlices.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { ApiError, messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { safeRedirect } from '../../shared/afterLogin.ts';
import { useBoards } from '../../shared/api/boards.ts';
import { useCard } from '../../shared/api/cards.ts';
import { NotFoundPage } from '../../shared/NotFoundPage.tsx';
import { liveItems } from './answers.ts';
import { useCompleteEvaluation, useEvaluation, useStartEvaluation } from './api.ts';
import { EvaluationDetails } from './EvaluationDetails.tsx';
import { EvaluationForm, type SignOff } from './EvaluationForm.tsx';
import { uploadMemberSignature } from './signOff/upload.ts';
import { signOffMessages } from '../../../common/signOff.ts';
import { memberEvidence } from './evidence/targets.ts';
import { useRights } from '../../shared/permissions.ts';
import { saveToOutbox, SAVED_ON_DEVICE } from '../../shared/offline/outbox.ts';
import { useUserData } from '../../lib/queries.ts';
import { keepingOffline } from './evidence/keepOffline.ts';
import { readEvaluationPath } from '../../shared/readings.ts';
import { ResultBadge } from './ResultBadge.tsx';
import { OnDemand } from '../../components/OnDemand.tsx';
import { lazyWithStyles } from '../../components/lazyWithStyles.ts';

// What a phone needs only after the form (docs/decisions/0741): loaded when first shown.
const GiveFeedbackModal = lazyWithStyles(() =>
  import('./feedback/GiveFeedbackModal.tsx').then((m) => ({ default: m.GiveFeedbackModal })),
);
const CompletedEvaluation = lazyWithStyles(() =>
  import('./CompletedEvaluation.tsx').then((m) => ({ default: m.CompletedEvaluation })),
);

const NOT_SAVED =
  'You are offline and this device could not keep the evaluation. Please try again when online.';

/** Submitted without a network: the evaluation waits on the device (docs/decisions/0730). */
function SavedOnDevice({ pass, back }: { pass: boolean; back: string }) {
  const navigate = useNavigate();
  return (
    <Page title="Evaluation saved" size="sm">
      <Paper withBorder p="lg">
        <Stack gap="md">
          <Group gap="sm">
            <Text fw={600}>Result</Text>
            <ResultBadge outcome={pass ? 'pass' : 'fail'} />
          </Group>
          <Text role="status">{SAVED_ON_DEVICE}</Text>
          <Button size="lg" fullWidth onClick={() => navigate(back)}>
            Back
          </Button>
        </Stack>
      </Paper>
    </Page>
  );
}

function Submitted({
  boardID,
  evalID,
  pass,
  back,
}: {
  boardID: number;
  evalID: number;
  pass: boolean;
  back: string;
}) {
  const navigate = useNavigate();
  const [giving, setGiving] = useState(false);
  return (
    <Page title="Evaluation submitted" size="sm">
      <Paper withBorder p="lg">
        <Stack gap="md">
          <Group gap="sm">
            <Text fw={600}>Result</Text>
            <ResultBadge outcome={pass ? 'pass' : 'fail'} />
          </Group>
          <Text>Would you like to give feedback on this evaluation?</Text>
          <Stack gap="sm">
            <Button size="lg" fullWidth onClick={() => setGiving(true)}>
              Give Feedback
            </Button>
            <Button size="lg" fullWidth variant="default" onClick={() => navigate(back)}>
              Skip
            </Button>
          </Stack>
        </Stack>
      </Paper>
      <OnDemand when={giving}>
        <GiveFeedbackModal
          opened={giving}
          boardID={boardID}
          evaluationID={evalID}
          onClose={() => setGiving(false)}
          onSent={() => navigate(back)}
        />
      </OnDemand>
    </Page>
  );
}

export function EvaluationPage() {
  const params = useParams();
  const { org = '' } = params;
  const reading = readEvaluationPath(params);
  const location = useLocation();
  const [search] = useSearchParams();
  const rights = useRights();
  const started = (location.state as { started?: boolean } | null)?.started === true;
  const member = reading.kind === 'member' ? reading : null;
  const evalID = member?.evalID ?? null;
  const boards = useBoards();
  const card = useCard(member?.cardID ?? null);
  // A fresh evaluation from the selection page is known to be open; any other is asked after.
  const existing = useEvaluation(evalID, !started);
  const start = useStartEvaluation();
  const complete = useCompleteEvaluation();
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<{ evalID: number; pass: boolean } | null>(null);
  const [saved, setSaved] = useState<{ pass: boolean } | null>(null);
  const user = useUserData();
  // A path that names no evaluation starts one at the first photo (or at Submit), once.
  const [starting] = useState<{ current: Promise<number> | null }>(() => ({ current: null }));
  const boardID = member?.boardID ?? 0;
  const cardID = member?.cardID ?? 0;
  const startMutate = start.mutateAsync;
  const evidence = useMemo(() => {
    let startedID = evalID;
    const evaluation = () => {
      if (evalID !== null) return Promise.resolve(evalID);
      starting.current ??= startMutate({ boardID, cardID }).then(
        (answer) => (startedID = answer.id),
        (error: unknown) => {
          starting.current = null;
          throw error;
        },
      );
      return starting.current;
    };
    // Without a network, photos stay on the device with the evaluation (docs/decisions/0730).
    const offline = keepingOffline(memberEvidence(evaluation));
    return { evaluation, target: offline.target, kept: offline.kept, startedID: () => startedID };
  }, [evalID, boardID, cardID, startMutate, starting]);

  if (!member) return <NotFoundPage />;
  const boardName = member.board ?? boards.data?.boards.find((b) => b.id === member.boardID)?.name ?? null;
  const back =
    safeRedirect(search.get('redirect')) ?? (boardName ? paths.board(org, boardName) : paths.home(org));

  if (done) return <Submitted boardID={member.boardID} evalID={done.evalID} pass={done.pass} back={back} />;
  if (saved) return <SavedOnDevice pass={saved.pass} back={back} />;

  const backLink = (
    <Anchor component={Link} to={back} underline="always">
      {boardName ? `Back to ${boardName}` : 'Back'}
    </Anchor>
  );

  // Already complete: read-only.
  if (existing.data) {
    const evaluation = existing.data.evaluation;
    return (
      <Page title={evaluation.cardName} size="sm">
        <EvaluationDetails evaluation={evaluation} />
        <OnDemand when fallback={<Loading label="Loading the evaluation" />}>
          <CompletedEvaluation evaluation={evaluation} />
        </OnDemand>
        {backLink}
      </Page>
    );
  }
  const probeFailed =
    existing.isError && !(existing.error instanceof ApiError && existing.error.status === 404);
  if (probeFailed) {
    return (
      <Page title={member.card ?? 'Evaluation'} size="sm">
        <ErrorText message={messageOf(existing.error, api.getEvaluation)} />
        {backLink}
      </Page>
    );
  }
  if (!started && existing.isPending && evalID !== null) return <Loading label="Loading the evaluation" />;
  if (!rights.isEvaluator) return <NotFoundPage />;

  /** Kept on the device, to be sent by the outbox when the network is back (docs/decisions/0730). */
  const saveOnDevice = async (results: ResultInput[], pass: boolean) => {
    if (!user.data) throw new Error('No member data on this device.');
    await saveToOutbox({
      org: user.data.orgName,
      user: user.data.name,
      boardID: member.boardID,
      boardName,
      cardID: member.cardID,
      cardName: card.data?.card.name ?? member.card,
      evalID: evidence.startedID(),
      results,
      photos: evidence.kept(),
    });
    setSaved({ pass });
  };

  const submit = async (results: ResultInput[], pass: boolean, signOff?: SignOff) => {
    setFailure(null);
    // A sign-off's signature is an upload the outbox does not carry (decision 0711): it needs the network.
    if (!navigator.onLine && signOff) return setFailure(signOffMessages.needsNetwork);
    if (!navigator.onLine) {
      try {
        await saveOnDevice(results, pass);
      } catch {
        setFailure(NOT_SAVED);
      }
      return;
    }
    let call: typeof api.addEvaluation | typeof api.addResults | typeof api.addEvaluationSignature =
      api.addEvaluation;
    try {
      // The other reading may name no evaluation: it is started now, with its results.
      const id = await evidence.evaluation();
      if (signOff) {
        call = api.addEvaluationSignature;
        await uploadMemberSignature(id, signOff.signature);
      }
      call = api.addResults;
      await complete.mutateAsync({ evalID: id, results, signedName: signOff?.signedName });
      setDone({ evalID: id, pass });
    } catch (error) {
      // The network went while sending: kept on the device instead, sent again under new keys (a completion
      // that did arrive makes the resend answer 409, which the outbox takes as arrived).
      if (error instanceof ApiError && error.status === 0 && signOff) {
        return setFailure(signOffMessages.needsNetwork);
      }
      if (error instanceof ApiError && error.status === 0) {
        try {
          return await saveOnDevice(results, pass);
        } catch {
          // Not kept either: the failure below is shown.
        }
      }
      setFailure(messageOf(error, call));
      // Completed meanwhile (another tab): show it as it is.
      if (error instanceof ApiError && error.status === 409) await existing.refetch();
    }
  };

  const items = liveItems(card.data?.card.cardItems ?? []);
  return (
    <Page title={card.data?.card.name ?? member.card ?? 'Evaluation'} size="sm">
      {boardName && (
        <Text c="dimmed" mt={-8}>
          {boardName}
        </Text>
      )}
      {card.isPending && <Loading label="Loading the card" />}
      <ErrorText message={card.error && messageOf(card.error, api.getCard)} />
      {card.data ? (
        <DrawnInSlices fallback={<Loading label="Loading the card" />}>
          <EvaluationForm
            items={items}
            submitting={start.isPending || complete.isPending}
            failure={failure}
            onSubmit={submit}
            evidence={evidence.target}
            signOffRequired={card.data.card.signOffRequired}
            source={evalID === null ? null : { boardID: member.boardID, evalID }}
          />
          {/* Under the form, drawn with it: drawn before it, it would be pushed down when the form comes. */}
          {backLink}
        </DrawnInSlices>
      ) : (
        !card.isPending && backLink
      )}
    </Page>
  );
}
