/**
 * Give Feedback (SPEC §2): a 10-row text area, Submit and Cancel. Submit shows loading while the call runs;
 * closing resets. The caller says how to send it: board-level or on an evaluation (add-feedback), or by an
 * anonymous visitor (add-feedback-anon).
 */
import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../../../../common/api/index.ts';
import type { CallDef } from '../../../../common/api/define.ts';
import { messageOf } from '../../../lib/api.ts';
import { useAddFeedback } from './api.ts';
import { FeedbackForm } from './FeedbackForm.tsx';

export const FEEDBACK_THANKS = 'Thank you for your feedback.';

interface ModalProps {
  opened: boolean;
  onClose: () => void;
  /** After the feedback is saved; closing by default. */
  onSent?: () => void;
}

function GiveFeedbackForm({
  send,
  call,
  onClose,
  onSent,
}: {
  send: (content: string) => Promise<unknown>;
  call: CallDef;
  onClose: () => void;
  onSent: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  return (
    <FeedbackForm
      rows={10}
      loading={sending}
      failure={failure}
      onCancel={onClose}
      onSubmit={async (content) => {
        setFailure(null);
        setSending(true);
        try {
          await send(content);
          notifications.show({
            message: FEEDBACK_THANKS,
            color: 'teal',
            // Away from the top, where the page's title and a modal's close button are.
            position: 'bottom-center',
            closeButtonProps: { 'aria-label': 'Close' },
          });
          onSent();
        } catch (error) {
          setFailure(messageOf(error, call));
        } finally {
          setSending(false);
        }
      }}
    />
  );
}

/** The modal around any way of sending feedback. */
export function FeedbackModal({
  opened,
  onClose,
  onSent = onClose,
  send,
  call,
}: ModalProps & { send: (content: string) => Promise<unknown>; call: CallDef }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Give Feedback" size="lg">
      {opened && <GiveFeedbackForm send={send} call={call} onClose={onClose} onSent={onSent} />}
    </Modal>
  );
}

/** A member's feedback: on the board (no evaluationID) or on an evaluation. */
export function GiveFeedbackModal({
  boardID,
  evaluationID = null,
  ...props
}: ModalProps & { boardID: number; evaluationID?: number | null }) {
  const add = useAddFeedback();
  return (
    <FeedbackModal
      {...props}
      call={api.addFeedback}
      send={(content) => add.mutateAsync({ boardID, evaluationID, content })}
    />
  );
}
