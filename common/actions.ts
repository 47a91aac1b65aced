/**
 * Corrective actions (issue 12, docs/decisions/0670): the rules both sides apply — who sees and changes an
 * action, and when it is overdue. The server enforces them; the web app shows or hides controls by them.
 */
import { hasRole, type Role } from './roles.ts';

export const ACTION_STATUSES = ['Open', 'Done', 'Cancelled'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];
export const ACTION_PRIORITIES = ['Low', 'Medium', 'High'] as const;
export type ActionPriority = (typeof ACTION_PRIORITIES)[number];

export const ACTION_TITLE_MAX = 200;
export const ACTION_TEXT_MAX = 5_000;

export const actionMessages = {
  titleLength: `The title must be between 1 and ${ACTION_TITLE_MAX} characters long.`,
  descriptionLength: `The description cannot be longer than ${ACTION_TEXT_MAX} characters.`,
  noteLength: `The close-out note must be between 1 and ${ACTION_TEXT_MAX} characters long.`,
  cancelNoteLength: `The note cannot be longer than ${ACTION_TEXT_MAX} characters.`,
  dueDate: 'Choose a due date.',
};

/** How an action relates to the member looking at it. */
export interface ActionRelation {
  isAssignee: boolean;
  isRaiser: boolean;
}

/** Viewers see nothing of actions; evaluators their own (assigned or raised); administrators every one. */
export const seesEveryAction = (role: Role) => hasRole(role, 'admin');
export const seesActions = (role: Role) => hasRole(role, 'evaluator');

export function maySeeAction(role: Role, relation: ActionRelation): boolean {
  return seesEveryAction(role) || (seesActions(role) && (relation.isAssignee || relation.isRaiser));
}

/** Done with a close-out note: whoever sees the action (its assignee, its raiser, an administrator). */
export const mayCompleteAction = maySeeAction;

/**
 * Edit (title, description, assignee, due date, priority) and Cancel: the raiser or an administrator. The
 * assignee fixes the problem and closes it; moving its deadline or dropping it is for whoever asked.
 */
export function mayManageAction(role: Role, relation: ActionRelation): boolean {
  return seesEveryAction(role) || (seesActions(role) && relation.isRaiser);
}

/** Only administrators raise an action on a board without an evaluation. */
export const mayRaiseBoardAction = (role: Role) => hasRole(role, 'admin');

/** The calendar date (YYYY-MM-DD) of an instant in an IANA time zone. */
export function localDate(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** An open action is overdue once its due date has passed in its own time zone. */
export function isOverdue(action: { status: ActionStatus; dueDate: string }, today: string): boolean {
  return action.status === 'Open' && action.dueDate < today;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
