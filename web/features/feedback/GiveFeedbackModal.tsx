/**
 * Give Feedback (SPEC §2): a 10-row text area, Submit and Cancel. Board-level from the board view (no
 * evaluationID), or on an evaluation just completed. Submit shows loading while the call runs; closing resets.
 */
import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../../../common/api/index.ts';
import { messageOf } from '../../lib/api.ts';
import { useAddFeedback } from './api.ts';
import { FeedbackForm } from './FeedbackForm.tsx';

export const FEEDBACK_THANKS = 'Thank you for your feedback.';

function GiveFeedbackForm({
  boardID,
  evaluationID,
  onClose,
  onSent,
}: {
  boardID: number;
  evaluationID: number | null;
  onClose: () => void;
  onSent: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const add = useAddFeedback();
  return (
    <FeedbackForm
      rows={10}
      loading={add.isPending}
      failure={failure}
      onCancel={onClose}
      onSubmit={async (content) => {
        setFailure(null);
        try {
          await add.mutateAsync({ boardID, evaluationID, content });
          notifications.show({
            message: FEEDBACK_THANKS,
            color: 'teal',
            // Away from the top, where the page's title and a modal's close button are.
            position: 'bottom-center',
            closeButtonProps: { 'aria-label': 'Close' },
          });
          onSent();
        } catch (error) {
          setFailure(messageOf(error, api.addFeedback));
        }
      }}
    />
  );
}

export function GiveFeedbackModal({
  opened,
  boardID,
  evaluationID = null,
  onClose,
  onSent = onClose,
}: {
  opened: boolean;
  boardID: number;
  evaluationID?: number | null;
  onClose: () => void;
  /** After the feedback is saved; closing by default. */
  onSent?: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Give Feedback" size="lg">
      {opened && (
        <GiveFeedbackForm boardID={boardID} evaluationID={evaluationID} onClose={onClose} onSent={onSent} />
      )}
    </Modal>
  );
}
