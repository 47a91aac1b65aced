/** The feedback on one evaluation, oldest first, with a form to add more (evaluators). */
import { Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, type Evaluation } from '../../../../common/api/index.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { messageOf } from '../../../lib/api.ts';
import { useRights } from '../../../shared/permissions.ts';
import { useAddFeedback, useEvaluationFeedback } from './api.ts';
import { FeedbackForm } from './FeedbackForm.tsx';
import { FeedbackItem } from './FeedbackItem.tsx';

export function EvaluationFeedback({ evaluation }: { evaluation: Evaluation }) {
  const rights = useRights();
  const feedback = useEvaluationFeedback(evaluation.ID);
  const add = useAddFeedback();
  const [adding, setAdding] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const list = feedback.data?.feedback ?? [];

  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Feedback
      </Title>
      {feedback.isPending && <Loading label="Loading feedback" />}
      <ErrorText message={feedback.error && messageOf(feedback.error, api.getFeedbackByEvaluationId)} />
      {feedback.data && list.length === 0 && (
        <Text size="sm" c="dimmed">
          No feedback yet.
        </Text>
      )}
      {list.length > 0 && (
        <Stack component="ul" gap="xs" p={0} m={0} aria-label="Feedback">
          {list.map((item) => (
            <FeedbackItem key={item.id} feedback={item} />
          ))}
        </Stack>
      )}
      {rights.isEvaluator &&
        (adding ? (
          <FeedbackForm
            label="Your feedback"
            rows={4}
            loading={add.isPending}
            failure={failure}
            onCancel={() => {
              setFailure(null);
              setAdding(false);
            }}
            onSubmit={async (content) => {
              setFailure(null);
              try {
                await add.mutateAsync({ boardID: evaluation.boardID, evaluationID: evaluation.ID, content });
                setAdding(false);
              } catch (error) {
                setFailure(messageOf(error, api.addFeedback));
              }
            }}
          />
        ) : (
          <Button
            variant="default"
            size="sm"
            onClick={() => setAdding(true)}
            style={{ alignSelf: 'flex-start' }}
          >
            Give Feedback
          </Button>
        ))}
    </Stack>
  );
}
