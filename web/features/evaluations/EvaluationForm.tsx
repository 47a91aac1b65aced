/**
 * Answering a card: its items in order, what is still unanswered (a count, the items marked, and Submit
 * saying what is missing), then Submit. The answers become add-results' results.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { Suspense, useRef, useState, type FormEvent } from 'react';
import type { CardItem } from '../../../common/api/index.ts';
import { missingEvidence, takesEvidence } from '../../../common/evidence.ts';
import { missingSignOff } from '../../../common/signOff.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { noAnswers, toResults, unanswered, passes, type Answers } from './answers.ts';
import classes from './EvaluationForm.module.css';
import { Instruction, NumericQuestion, PassFailQuestion, TextQuestion } from './Questions.tsx';
import { ItemEvidence } from './evidence/ItemEvidence.tsx';
import { usePhotoUploads, type EvidenceTarget } from './evidence/usePhotoUploads.ts';
import type { SignOffHandle } from './signOff/SignOffField.tsx';

// The signature pad is loaded only for a card that requires sign-off (it stays out of the first page's bundle).
const SignOffField = lazyWithStyles(() =>
  import('./signOff/SignOffField.tsx').then((module) => ({ default: module.SignOffField })),
);

/** What a card requiring sign-off is submitted with (issue 13). */
export interface SignOff {
  signature: Blob;
  signedName: string;
}

export const PHOTOS_PENDING_MESSAGE = 'Wait until every photo has uploaded, or remove the ones that failed.';
import { useActionSlots } from '../../shared/actionSlots.tsx';
import { lazyWithStyles } from '../../components/lazyWithStyles.ts';

export const missingMessage = (count: number) =>
  `Answer every Pass/Fail check before submitting: ${count} ${count === 1 ? 'is' : 'are'} still unanswered.`;

function progress(total: number, left: number): string {
  if (total === 0) return 'No checks to answer';
  if (left === 0) return total === 1 ? 'The check is answered' : `All ${total} checks answered`;
  return `${left} of ${total} ${total === 1 ? 'check' : 'checks'} unanswered`;
}

export function EvaluationForm({
  items,
  submitting,
  failure,
  onSubmit,
  evidence,
  source,
  signOffRequired = false,
}: {
  items: CardItem[];
  /** Issue 13: the card needs a drawn signature and a typed name before Submit. */
  signOffRequired?: boolean;
  /** The evaluation being answered, once it exists: a failed check can raise an action from it. */
  source?: { boardID: number; evalID: number } | null;
  submitting: boolean;
  failure: string | null;
  onSubmit: (results: ReturnType<typeof toResults>, pass: boolean, signOff?: SignOff) => void;
  /** Where photos go (issue 12); without it, items take notes but no photos. */
  evidence?: EvidenceTarget;
}) {
  const [answers, setAnswers] = useState<Answers>(noAnswers);
  const [attempted, setAttempted] = useState(false);
  const signOffRef = useRef<SignOffHandle>(null);
  const [signedName, setSignedName] = useState('');
  const [signed, setSigned] = useState(false);
  const uploads = usePhotoUploads(evidence);
  const photosOf = (itemID: number) => uploads.photos.filter((p) => p.itemID === itemID);
  // What each failed item still needs (the server's rule and message, common/evidence.ts).
  const lacking = new Map<number, string>();
  for (const item of items) {
    const message = missingEvidence(item, {
      failed: answers.choices[item.id] === 'fail',
      note: answers.notes[item.id],
      photos: photosOf(item.id).filter((p) => p.status === 'done').length,
    });
    if (message) lacking.set(item.id, message);
  }
  const pendingPhotos = uploads.photos.some((p) => p.status !== 'done');
  const { FailedItemControl } = useActionSlots();
  const checks = items.filter((item) => item.type === 'pass_fail');
  const missing = unanswered(items, answers);
  const checkNumbers = new Map(checks.map((item, index) => [item.id, index + 1]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (missing.length) {
      setAttempted(true);
      const first = document.getElementById(`item-${missing[0]!.id}`);
      first?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      first?.querySelector<HTMLElement>('[role="radio"]')?.focus({ preventScroll: true });
      return;
    }
    if (lacking.size || pendingPhotos) {
      setAttempted(true);
      const first = items.find((item) => lacking.has(item.id));
      if (first)
        document.getElementById(`item-${first.id}`)?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      return;
    }
    const results = toResults(items, answers);
    const pass = passes(items, answers);
    if (!signOffRequired) return onSubmit(results, pass);
    if (missingSignOff(true, { signature: signed, signedName })) {
      setAttempted(true);
      document
        .querySelector('[data-testid="sign-off"]')
        ?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      return;
    }
    void signOffRef.current!.toBlob().then((signature) => onSubmit(results, pass, { signature, signedName }));
  };
  const signOffProblem =
    signOffRequired && attempted ? missingSignOff(true, { signature: signed, signedName }) : null;

  const evidenceOf = (item: CardItem) =>
    takesEvidence(item.type) ? (
      <ItemEvidence
        item={item}
        photos={photosOf(item.id)}
        note={answers.notes[item.id] ?? ''}
        missing={lacking.get(item.id) ?? null}
        canAddPhotos={evidence !== undefined}
        onNote={(note) => setAnswers((a) => ({ ...a, notes: { ...a.notes, [item.id]: note } }))}
        onAdd={(file) => void uploads.add(item.id, file)}
        onRetry={uploads.retry}
        onRemove={(key) => void uploads.remove(key)}
      />
    ) : null;
  const evidenceProblem = attempted
    ? ([...lacking.values()][0] ?? (pendingPhotos ? PHOTOS_PENDING_MESSAGE : null))
    : null;

  return (
    <form onSubmit={submit} noValidate aria-label="Evaluation">
      <Stack gap="md">
        <Stack component="ol" gap="sm" p={0} m={0}>
          {items.map((item) => {
            if (item.type === 'pass_fail') {
              return (
                <PassFailQuestion
                  key={item.id}
                  item={item}
                  number={checkNumbers.get(item.id)!}
                  choice={answers.choices[item.id]}
                  missing={attempted}
                  extra={
                    FailedItemControl && source && answers.choices[item.id] === 'fail' ? (
                      <FailedItemControl item={{ ...source, itemID: item.id, content: item.content }} />
                    ) : null
                  }
                  onChoose={(choice) =>
                    setAnswers((a) => ({ ...a, choices: { ...a.choices, [item.id]: choice } }))
                  }
                >
                  {evidenceOf(item)}
                </PassFailQuestion>
              );
            }
            if (item.type === 'text') {
              return (
                <TextQuestion
                  key={item.id}
                  item={item}
                  value={answers.texts[item.id] ?? ''}
                  onChange={(text) => setAnswers((a) => ({ ...a, texts: { ...a.texts, [item.id]: text } }))}
                >
                  {evidenceOf(item)}
                </TextQuestion>
              );
            }
            if (item.type === 'numeric') {
              return (
                <NumericQuestion
                  key={item.id}
                  item={item}
                  value={answers.numbers[item.id] ?? ''}
                  onChange={(value) =>
                    setAnswers((a) => ({ ...a, numbers: { ...a.numbers, [item.id]: value } }))
                  }
                >
                  {evidenceOf(item)}
                </NumericQuestion>
              );
            }
            return <Instruction key={item.id} item={item} />;
          })}
        </Stack>

        {signOffRequired && (
          <Suspense fallback={<Loading label="Loading the signature box" />}>
            <SignOffField
              ref={signOffRef}
              name={signedName}
              onName={setSignedName}
              onSigned={setSigned}
              error={missing.length === 0 && !evidenceProblem ? signOffProblem : null}
            />
          </Suspense>
        )}

        <div className={classes.footer}>
          <Stack gap="xs">
            {attempted && missing.length > 0 && (
              <Text size="sm" fw={600} c="var(--mantine-color-error)" role="alert">
                {missingMessage(missing.length)}
              </Text>
            )}
            {missing.length === 0 && evidenceProblem && (
              <Text size="sm" fw={600} c="var(--mantine-color-error)" role="alert">
                {evidenceProblem}
              </Text>
            )}
            <ErrorText message={failure} />
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Text size="sm" fw={600} aria-live="polite" data-testid="progress">
                {progress(checks.length, missing.length)}
              </Text>
              <Button type="submit" size="lg" loading={submitting} miw={140}>
                Submit
              </Button>
            </Group>
          </Stack>
        </div>
      </Stack>
    </form>
  );
}
