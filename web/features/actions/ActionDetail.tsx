/**
 * One action: what, where, who and when, its history (who, when, what changed), and for those allowed Edit,
 * Done with a close-out note, and Cancel (common/actions.ts decides; the server's refusal is shown as given).
 */
import { Badge, Button, Divider, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { ACTION_TEXT_MAX, mayCompleteAction, mayManageAction } from '../../../common/actions.ts';
import { api, type Action, type ActionHistoryEntry } from '../../../common/api/index.ts';
import { roleOf } from '../../../common/roles.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { messageOf } from '../../lib/api.ts';
import { useUserData } from '../../lib/queries.ts';
import { formatDateTime } from '../../shared/format.ts';
import { ReportButton } from '../../shared/reports/ReportButton.tsx';
import { ActionFormModal } from './ActionForm.tsx';
import { StatusBadge, DueText } from './ActionBadges.tsx';
import { ActionPhotos } from './ActionPhotos.tsx';
import { useAction, useCancelAction, useCompleteAction } from './api.ts';
import { GrowingTextarea } from '../../components/GrowingTextarea.tsx';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" miw={96}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function History({ entries }: { entries: ActionHistoryEntry[] }) {
  return (
    <Stack gap={6} component="ol" p={0} m={0} aria-label="History">
      {entries.map((entry) => (
        <li key={entry.id} style={{ listStyle: 'none' }} data-testid="history-entry">
          <Text size="sm">
            <Text span fw={600}>
              {entry.event}
            </Text>{' '}
            by {entry.userName}, {formatDateTime(entry.time)}
          </Text>
          {entry.changes.map((change) => (
            <Text size="xs" c="dimmed" key={change.field} style={{ overflowWrap: 'anywhere' }}>
              {change.field}: {change.from || '(empty)'} → {change.to || '(empty)'}
            </Text>
          ))}
          {entry.note && (
            <Text size="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              Note: {entry.note}
            </Text>
          )}
        </li>
      ))}
    </Stack>
  );
}

type Closing = 'Done' | 'Cancelled' | null;

function CloseForm({
  action,
  kind,
  onDone,
}: {
  action: Action;
  kind: 'Done' | 'Cancelled';
  onDone: () => void;
}) {
  const complete = useCompleteAction();
  const cancel = useCancelAction();
  const [note, setNote] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const call = kind === 'Done' ? api.completeAction : api.cancelAction;
  const submit = async () => {
    setFailure(null);
    try {
      if (kind === 'Done') await complete.mutateAsync({ actionID: action.id, note });
      else await cancel.mutateAsync({ actionID: action.id, note: note || undefined });
      onDone();
    } catch (error) {
      setFailure(messageOf(error, call));
    }
  };
  return (
    <Stack gap="xs">
      <GrowingTextarea
        label={kind === 'Done' ? 'Close-out note' : 'Why is it cancelled? (optional)'}
        description={kind === 'Done' ? 'What was done to fix it.' : undefined}
        required={kind === 'Done'}
        minRows={3}
        maxLength={ACTION_TEXT_MAX}
        value={note}
        onChange={(event) => setNote(event.currentTarget.value)}
      />
      <ErrorText message={failure} />
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onDone}>
          Back
        </Button>
        <Button
          color={kind === 'Done' ? undefined : 'red'}
          loading={complete.isPending || cancel.isPending}
          onClick={submit}
        >
          {kind === 'Done' ? 'Close as Done' : 'Cancel action'}
        </Button>
      </Group>
    </Stack>
  );
}

function ActionBody({ actionID }: { actionID: number }) {
  const answer = useAction(actionID);
  const { data: user } = useUserData();
  const [closing, setClosing] = useState<Closing>(null);
  const [editing, setEditing] = useState(false);
  if (answer.isPending) return <Loading label="Loading the action" />;
  if (answer.isError) return <ErrorText message={messageOf(answer.error, api.getAction)} />;
  const { action, history, photos } = answer.data;
  const role = user ? roleOf(user) : 'viewer';
  const relation = { isAssignee: action.isAssignee, isRaiser: action.isRaiser };
  const open = action.status === 'Open';
  return (
    <Stack gap="md">
      <Group gap="xs">
        <StatusBadge action={action} />
        <Badge variant="default" tt="none">
          {action.priority} priority
        </Badge>
      </Group>
      <Stack gap={4}>
        <Fact label="Due">
          <DueText action={action} />
        </Fact>
        <Fact label="Where">
          {action.boardName}
          {action.cardName ? ` › ${action.cardName}` : ''}
        </Fact>
        <Fact label="Assigned to">{action.assigneeName}</Fact>
        <Fact label="Raised by">
          {action.raisedByName}, {formatDateTime(action.createdTime)}
        </Fact>
      </Stack>
      {/* Issue 13: the report of the evaluation the action came from. */}
      {action.evalID !== null && <ReportButton evalID={action.evalID} label="Evaluation report (PDF)" />}
      {action.description && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {action.description}
        </Text>
      )}
      {action.closeNote && (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {action.status === 'Done' ? 'Close-out note' : 'Note'}
          </Text>
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            data-testid="close-note"
          >
            {action.closeNote}
          </Text>
        </Stack>
      )}
      <ActionPhotos
        actionID={action.id}
        photos={photos}
        canAdd={open && closing === 'Done' && mayCompleteAction(role, relation)}
      />
      {open && closing && <CloseForm action={action} kind={closing} onDone={() => setClosing(null)} />}
      {open && !closing && (
        <Group gap="xs" justify="flex-end">
          {mayManageAction(role, relation) && (
            <>
              <Button variant="default" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button variant="default" color="red" onClick={() => setClosing('Cancelled')}>
                Cancel action
              </Button>
            </>
          )}
          {mayCompleteAction(role, relation) && (
            <Button onClick={() => setClosing('Done')}>Mark as Done</Button>
          )}
        </Group>
      )}
      <Divider />
      <Title order={3} size="h5">
        History
      </Title>
      <History entries={history} />
      {editing && (
        <ActionFormModal
          opened
          action={action}
          onClose={() => setEditing(false)}
          onSaved={() => setEditing(false)}
        />
      )}
    </Stack>
  );
}

export function ActionModal({ actionID, onClose }: { actionID: number | null; onClose: () => void }) {
  const answer = useAction(actionID);
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={actionID !== null}
      onClose={onClose}
      title={answer.data?.action.title ?? 'Action'}
      size="lg"
      fullScreen={phone}
    >
      {actionID !== null && <ActionBody key={actionID} actionID={actionID} />}
    </Modal>
  );
}
