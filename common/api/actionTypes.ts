/** The wire shapes of corrective actions (issue 12, docs/decisions/0670); the calls are in actions.ts. */
import { z } from 'zod';
import {
  ACTION_PRIORITIES,
  ACTION_STATUSES,
  ACTION_TEXT_MAX,
  ACTION_TITLE_MAX,
  actionMessages,
} from '../actions.ts';
import { SEARCH_PAGE_DEFAULT, SEARCH_PAGE_MAX } from '../constants.ts';
import { dateTime, id } from './entities.ts';

/** A calendar date, YYYY-MM-DD: an action falls due on a day, not at an instant. */
export const calendarDate = z.iso.date({ message: actionMessages.dueDate });

export const actionTitle = z
  .string()
  .trim()
  .min(1, actionMessages.titleLength)
  .max(ACTION_TITLE_MAX, actionMessages.titleLength);
export const actionDescription = z.string().trim().max(ACTION_TEXT_MAX, actionMessages.descriptionLength);
export const timeZoneName = z.string().min(1).max(100);

export const actionChange = z.object({ field: z.string(), from: z.string(), to: z.string() });

export const actionHistoryEntry = z.object({
  id,
  time: dateTime,
  userName: z.string(),
  event: z.enum(['Raised', 'Edited', 'Done', 'Cancelled']),
  changes: z.array(actionChange),
  note: z.string().nullable(),
});
export type ActionHistoryEntry = z.infer<typeof actionHistoryEntry>;

export const action = z.object({
  id,
  title: z.string(),
  description: z.string(),
  status: z.enum(ACTION_STATUSES),
  priority: z.enum(ACTION_PRIORITIES),
  dueDate: z.string(),
  /** Open and past its due date in the time zone it was raised in. */
  isOverdue: z.boolean(),
  boardID: id,
  boardName: z.string(),
  evalID: id.nullable(),
  cardID: id.nullable(),
  cardName: z.string().nullable(),
  itemID: id.nullable(),
  assigneeID: id,
  assigneeName: z.string(),
  raisedByName: z.string(),
  closeNote: z.string().nullable(),
  createdTime: dateTime,
  updatedTime: dateTime,
  closedTime: dateTime.nullable(),
  isAssignee: z.boolean(),
  isRaiser: z.boolean(),
});
export type Action = z.infer<typeof action>;

/**
 * The Actions tab's filter and keyset cursor: ordered by due date then id, ascending (the most urgent
 * first); previousDueDate and previousID are the last row of the previous page. scope 'all' lets an
 * administrator see every action of the organisation; everyone else sees those assigned to or raised by them.
 */
export const actionsFilter = z.strictObject({
  scope: z.enum(['mine', 'all']).default('mine'),
  status: z.enum(ACTION_STATUSES).nullable().optional(),
  boardID: id.nullable().optional(),
  assigneeID: id.nullable().optional(),
  dueFrom: calendarDate.nullable().optional(),
  dueTo: calendarDate.nullable().optional(),
  previousDueDate: calendarDate.nullable().optional(),
  previousID: id.nullable().optional(),
  quantity: z.number().int().min(1).max(SEARCH_PAGE_MAX).default(SEARCH_PAGE_DEFAULT),
});
export type ActionsFilter = z.output<typeof actionsFilter>;
