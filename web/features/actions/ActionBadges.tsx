/** An action's status and due date as they read on screen: overdue is said in words and marked by an icon. */
import { Badge, Text } from '@mantine/core';
import { format, parseISO } from 'date-fns';
import type { Action } from '../../../common/api/index.ts';
import { CheckIcon, XIcon } from '../../components/icons.tsx';

export const OVERDUE = 'Overdue';

export const formatDueDate = (dueDate: string) => format(parseISO(dueDate), 'EEE d MMM yyyy');

export function StatusBadge({ action }: { action: Pick<Action, 'status'> }) {
  if (action.status === 'Done')
    return (
      <Badge color="teal" variant="light" leftSection={<CheckIcon size={12} />} tt="none">
        Done
      </Badge>
    );
  if (action.status === 'Cancelled')
    return (
      <Badge color="gray" variant="light" leftSection={<XIcon size={12} />} tt="none">
        Cancelled
      </Badge>
    );
  return (
    <Badge color="blue" variant="light" tt="none">
      Open
    </Badge>
  );
}

export function DueText({ action }: { action: Pick<Action, 'dueDate' | 'isOverdue'> }) {
  return (
    <>
      {formatDueDate(action.dueDate)}
      {action.isOverdue && (
        <Badge color="red" variant="filled" ml={6} tt="none" data-testid="overdue">
          <span aria-hidden="true">⚠&nbsp;</span>
          {OVERDUE}
        </Badge>
      )}
    </>
  );
}

export function DueLine({ action }: { action: Pick<Action, 'dueDate' | 'isOverdue'> }) {
  return (
    <Text size="sm" fw={action.isOverdue ? 700 : undefined}>
      Due <DueText action={action} />
    </Text>
  );
}
