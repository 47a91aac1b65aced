/** One piece of feedback: who and when, the text, and for those allowed its edit and delete. */
import { ActionIcon, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { api, type Feedback } from '../../../../common/api/index.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { EditIcon, TrashIcon } from '../../../components/icons.tsx';
import { messageOf } from '../../../lib/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useRights } from '../../../shared/permissions.ts';
import { useDeleteFeedback, useEditFeedback } from './api.ts';
import { FeedbackForm } from './FeedbackForm.tsx';

export function FeedbackItem({
  feedback,
  context,
  actions,
}: {
  feedback: Feedback;
  /** Where it was given (the Feedback tab shows board and card). */
  context?: ReactNode;
  actions?: ReactNode;
}) {
  const rights = useRights();
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const [failure, setFailure] = useState<string | null>(null);
  const edit = useEditFeedback();
  const remove = useDeleteFeedback();
  const mayChange = rights.mayChange(feedback.isUsers);
  const switchTo = (next: typeof mode) => {
    setFailure(null);
    setMode(next);
  };

  return (
    <Paper withBorder p="sm" component="li" data-testid="feedback-item" style={{ listStyle: 'none' }}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {feedback.userName}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(feedback.createdTime)}
            </Text>
            {context}
          </div>
          {mayChange && mode === 'view' && (
            <Group gap={2} wrap="nowrap">
              <Tooltip label="Edit feedback">
                <ActionIcon variant="subtle" aria-label="Edit feedback" onClick={() => switchTo('edit')}>
                  <EditIcon />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Delete feedback">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label="Delete feedback"
                  onClick={() => switchTo('delete')}
                >
                  <TrashIcon />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
        {mode === 'edit' ? (
          <FeedbackForm
            label="Edit feedback"
            initial={feedback.content}
            rows={4}
            loading={edit.isPending}
            failure={failure}
            onCancel={() => switchTo('view')}
            onSubmit={async (content) => {
              setFailure(null);
              try {
                await edit.mutateAsync({
                  isAdmin: rights.isAdmin,
                  feedbackID: feedback.id,
                  evaluationID: feedback.evalID,
                  content,
                });
                setMode('view');
              } catch (error) {
                setFailure(messageOf(error, api.editFeedback));
              }
            }}
          />
        ) : (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {feedback.content}
          </Text>
        )}
        {mode === 'delete' && (
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              Delete this feedback?
            </Text>
            <ErrorText message={failure} />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" size="xs" onClick={() => switchTo('view')}>
                Cancel
              </Button>
              <Button
                color="red"
                size="xs"
                loading={remove.isPending}
                onClick={async () => {
                  setFailure(null);
                  try {
                    await remove.mutateAsync({
                      isAdmin: rights.isAdmin,
                      feedbackID: feedback.id,
                      evaluationID: feedback.evalID,
                      boardID: feedback.boardID,
                    });
                  } catch (error) {
                    setFailure(messageOf(error, api.deleteFeedback));
                  }
                }}
              >
                Delete
              </Button>
            </Group>
          </Stack>
        )}
        {mode === 'view' && actions}
      </Stack>
    </Paper>
  );
}
