/**
 * Raise or edit an action: title (prefilled from the failed item), description, assignee (a member who
 * evaluates), due date and priority. The server's refusal goes on the field it names, else under the form.
 */
import { Button, Group, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { format, addDays } from 'date-fns';
import { useState } from 'react';
import {
  ACTION_PRIORITIES,
  ACTION_TEXT_MAX,
  ACTION_TITLE_MAX,
  actionMessages,
  type ActionPriority,
} from '../../../common/actions.ts';
import { api, type Action } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { messageOf } from '../../lib/api.ts';
import { applyServerError } from '../../lib/formErrors.ts';
import { browserTimeZone } from '../../shared/timeZone.ts';
import { useAssignees, useEditAction, useRaiseAction } from './api.ts';
import { titleFromItem, type RaiseSource } from './titleFromItem.ts';
import { GrowingTextarea } from '../../components/GrowingTextarea.tsx';

export { titleFromItem, type RaiseSource };

interface Values {
  title: string;
  description: string;
  assigneeID: string;
  dueDate: string;
  priority: ActionPriority;
}

function ActionFormBody({
  source,
  action,
  onClose,
  onSaved,
}: {
  source?: RaiseSource;
  action?: Action;
  onClose: () => void;
  onSaved: (action: Action) => void;
}) {
  const assignees = useAssignees();
  const raise = useRaiseAction();
  const edit = useEditAction();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: action
      ? {
          title: action.title,
          description: action.description,
          assigneeID: String(action.assigneeID),
          dueDate: action.dueDate,
          priority: action.priority,
        }
      : {
          title: source?.title ?? '',
          description: '',
          assigneeID: '',
          dueDate: format(addDays(new Date(), 7), 'yyyy-MM-dd'),
          priority: 'Medium',
        },
    validate: {
      title: (v) =>
        v.trim().length < 1 || v.trim().length > ACTION_TITLE_MAX ? actionMessages.titleLength : null,
      description: (v) => (v.trim().length > ACTION_TEXT_MAX ? actionMessages.descriptionLength : null),
      assigneeID: (v) => (v ? null : 'Choose who the action is assigned to.'),
      dueDate: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? null : actionMessages.dueDate),
    },
  });
  const call = action ? api.editAction : api.addAction;

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const fields = {
      title: values.title,
      description: values.description,
      assigneeID: Number(values.assigneeID),
      dueDate: values.dueDate,
      priority: values.priority,
    };
    try {
      const answer = action
        ? await edit.mutateAsync({ actionID: action.id, ...fields })
        : await raise.mutateAsync({
            boardID: source!.boardID,
            evalID: source?.evalID ?? null,
            itemID: source?.itemID ?? null,
            timeZone: browserTimeZone(),
            ...fields,
          });
      onSaved(answer.action);
    } catch (error) {
      setFailure(applyServerError(error, call, form.setFieldError));
    }
  });

  const options = [
    { value: '', label: 'Choose a member', disabled: true },
    ...(assignees.data?.assignees ?? []).map((a) => ({ value: String(a.id), label: a.email })),
  ];
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Title" required maxLength={ACTION_TITLE_MAX} {...form.getInputProps('title')} />
        <GrowingTextarea
          label="Description"
          minRows={3}
          maxLength={ACTION_TEXT_MAX}
          {...form.getInputProps('description')}
        />
        <NativeSelect label="Assigned to" required data={options} {...form.getInputProps('assigneeID')} />
        <ErrorText message={assignees.error && messageOf(assignees.error, api.getActionAssignees)} />
        <Group grow align="flex-start">
          <TextInput label="Due date" type="date" required {...form.getInputProps('dueDate')} />
          <NativeSelect label="Priority" data={[...ACTION_PRIORITIES]} {...form.getInputProps('priority')} />
        </Group>
        <ErrorText message={failure} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={raise.isPending || edit.isPending}>
            {action ? 'Save' : 'Raise action'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function ActionFormModal({
  opened,
  onClose,
  onSaved,
  source,
  action,
}: {
  opened: boolean;
  onClose: () => void;
  onSaved: (action: Action) => void;
  source?: RaiseSource;
  action?: Action;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={action ? 'Edit action' : 'Raise action'}
      size="lg"
      fullScreen={phone}
    >
      {opened && <ActionFormBody source={source} action={action} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}
