/**
 * An evaluation opened from a square or a search row: its results and feedback, and for those allowed
 * its deletion (the server decides; its message is shown as given).
 */
import { Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { api } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { messageOf } from '../../lib/api.ts';
import { EvaluationFeedback } from './feedback/EvaluationFeedback.tsx';
import { useDeleteEvaluation, useEvaluation } from './api.ts';
import { EvaluationDetails } from './EvaluationDetails.tsx';
import { ReportPanel } from './ReportPanel.tsx';
import { useRights } from '../../shared/permissions.ts';

function DeleteEvaluation({ evalID, onDeleted }: { evalID: number; onDeleted: () => void }) {
  const remove = useDeleteEvaluation();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!confirming) {
    return (
      <Group justify="flex-end">
        <Button variant="default" color="red" onClick={() => setConfirming(true)}>
          Delete evaluation
        </Button>
      </Group>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        Delete this evaluation, its results and its feedback?
      </Text>
      <ErrorText message={failure} />
      <Group justify="flex-end" gap="xs">
        <Button
          variant="default"
          onClick={() => {
            setFailure(null);
            setConfirming(false);
          }}
        >
          Cancel
        </Button>
        <Button
          color="red"
          loading={remove.isPending}
          onClick={async () => {
            setFailure(null);
            try {
              await remove.mutateAsync({ evalID });
              onDeleted();
            } catch (error) {
              setFailure(messageOf(error, api.deleteEvaluation));
            }
          }}
        >
          Delete
        </Button>
      </Group>
    </Stack>
  );
}

function EvaluationModalBody({ evalID, onClose }: { evalID: number; onClose: () => void }) {
  const rights = useRights();
  const evaluation = useEvaluation(evalID);
  if (evaluation.isPending) return <Loading label="Loading the evaluation" />;
  if (evaluation.isError) return <ErrorText message={messageOf(evaluation.error, api.getEvaluation)} />;
  const current = evaluation.data.evaluation;
  return (
    <Stack gap="md">
      <EvaluationDetails evaluation={current} />
      <Divider />
      <EvaluationFeedback evaluation={current} />
      <Divider />
      <ReportPanel evalID={current.ID} />
      {rights.mayChange(current.isUsers) && (
        <>
          <Divider />
          <DeleteEvaluation evalID={current.ID} onDeleted={onClose} />
        </>
      )}
    </Stack>
  );
}

export function EvaluationModal({ evalID, onClose }: { evalID: number | null; onClose: () => void }) {
  const evaluation = useEvaluation(evalID);
  // On a phone the whole screen is the evaluation's: a long card reads as a page.
  const phone = useMediaQuery('(max-width: 36em)');
  const title = evaluation.data?.evaluation.cardName ?? 'Evaluation';
  return (
    <Modal opened={evalID !== null} onClose={onClose} title={title} size="lg" fullScreen={phone}>
      {evalID !== null && <EvaluationModalBody key={evalID} evalID={evalID} onClose={onClose} />}
    </Modal>
  );
}
