/**
 * SPEC §2's 'Give Feedback' modal for an anonymous visitor: a 10-row text area, Submit and Cancel
 * (add-feedback-anon). Fields and errors reset on close; Submit shows loading while the call runs.
 */
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../../common/api/index.ts';
import { feedbackContent } from '../../../common/api/inputs.ts';
import { FEEDBACK_MAX } from '../../../common/constants.ts';
import { messageOf } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';
import type { AnonymousAccess } from './api.ts';

export function GiveFeedbackModal({
  opened,
  access,
  evalID,
  onClose,
  onSent,
}: {
  opened: boolean;
  access: AnonymousAccess;
  evalID: number;
  onClose: () => void;
  onSent: () => void;
}) {
  const [content, setContent] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const add = useCallMutation(api.addFeedbackAnon, { onSuccess: onSent });

  const close = () => {
    if (add.isPending) return;
    setContent('');
    setInvalid(null);
    add.reset();
    onClose();
  };

  const submit = () => {
    const parsed = feedbackContent.safeParse(content);
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setInvalid(null);
    add.mutate({ ...access, evalID, content: parsed.data });
  };

  const failure = add.error ? messageOf(add.error, api.addFeedbackAnon) : null;
  return (
    <Modal opened={opened} onClose={close} title="Give Feedback" centered size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Textarea
            label="Feedback"
            description={`${content.length}/${FEEDBACK_MAX}`}
            rows={10}
            maxLength={FEEDBACK_MAX}
            size="md"
            data-autofocus
            value={content}
            error={invalid}
            aria-invalid={invalid ? true : undefined}
            onChange={(event) => {
              setContent(event.currentTarget.value);
              if (invalid) setInvalid(null);
            }}
          />
          {failure && (
            <Text c="var(--mantine-color-error)" role="alert" fw={500}>
              {failure}
            </Text>
          )}
          <Group justify="flex-end" gap="sm" grow>
            <Button variant="default" size="lg" onClick={close} disabled={add.isPending}>
              Cancel
            </Button>
            <Button type="submit" size="lg" loading={add.isPending}>
              Submit
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
