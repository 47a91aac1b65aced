/**
 * Corrective actions (issue 12, docs/decisions/0670-0673): our additions to the contract. Raised from a
 * failed item of an evaluation (or, by an administrator, on a board), edited, closed as Done with a note or
 * Cancelled; every change is kept in the action's history.
 */
import { z } from 'zod';
import { ACTION_PRIORITIES, ACTION_TEXT_MAX, actionMessages } from '../actions.ts';
import {
  action,
  actionDescription as description,
  actionHistoryEntry,
  actionsFilter,
  actionTitle as title,
  calendarDate,
  timeZoneName as timeZone,
} from './actionTypes.ts';
import { defineCall } from './define.ts';
import { actionPhoto, id } from './entities.ts';
import { PHOTO_SIZES } from '../evidence.ts';

const actionFields = {
  title,
  description: description.default(''),
  assigneeID: id,
  dueDate: calendarDate,
  priority: z.enum(ACTION_PRIORITIES),
};

export const addAction = defineCall({
  path: '/api/add-action',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  /**
   * evalID and itemID: the failed item it is raised from (the caller's own open evaluation, or a completed
   * one); without them an administrator raises it on the board. timeZone: the raiser's IANA zone, in which
   * the due date's day is counted (default UTC).
   */
  request: z.strictObject({
    boardID: id,
    evalID: id.nullable().optional(),
    itemID: id.nullable().optional(),
    ...actionFields,
    timeZone: timeZone.optional(),
  }),
  response: z.object({ action }),
  failMsg: 'Could not add the action. Please try again later.',
});

export const editAction = defineCall({
  path: '/api/edit-action',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({ actionID: id, ...actionFields }),
  response: z.object({ action }),
  failMsg: 'Could not edit the action. Please try again later.',
});

export const completeAction = defineCall({
  path: '/api/complete-action',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({
    actionID: id,
    note: z.string().trim().min(1, actionMessages.noteLength).max(ACTION_TEXT_MAX, actionMessages.noteLength),
  }),
  response: z.object({ action }),
  failMsg: 'Could not close the action. Please try again later.',
});

export const cancelAction = defineCall({
  path: '/api/cancel-action',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({
    actionID: id,
    note: z.string().trim().max(ACTION_TEXT_MAX, actionMessages.cancelNoteLength).optional(),
  }),
  response: z.object({ action }),
  failMsg: 'Could not cancel the action. Please try again later.',
});

export const getAction = defineCall({
  path: '/api/get-action',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  request: z.strictObject({ actionID: id }),
  response: z.object({ action, history: z.array(actionHistoryEntry), photos: z.array(actionPhoto) }),
  failMsg: 'Could not get the action. Please try again later.',
});

export const getActions = defineCall({
  path: '/api/get-actions',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  request: actionsFilter,
  response: z.object({ actions: z.array(action) }),
  failMsg: 'Could not get actions. Please try again later.',
});

/** Every action the filter matches (cursor and page size ignored), streamed as .xlsx. */
export const getActionsExcel = defineCall({
  path: '/api/get-actions-excel',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  file: true,
  request: actionsFilter.extend({ timeZone: timeZone.optional() }),
  response: z.unknown(),
  failMsg: 'There was an error getting the excel file.',
});

/** The members an action may be assigned to: the organisation's evaluators and above. */
export const getActionAssignees = defineCall({
  path: '/api/get-action-assignees',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  request: z.strictObject({}),
  response: z.object({ assignees: z.array(z.object({ id, email: z.string() })) }),
  failMsg: 'Could not get the members. Please try again later.',
});

/** The board view's marks: open actions per card and per evaluation of one board. */
export const getBoardActionCounts = defineCall({
  path: '/api/get-board-action-counts',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  request: z.strictObject({ boardID: id }),
  response: z.object({
    cards: z.array(z.object({ cardID: id, open: z.number().int() })),
    evaluations: z.array(z.object({ evalID: id, open: z.number().int() })),
  }),
  failMsg: 'Could not get actions. Please try again later.',
});

/** Query-string ids of the photo calls arrive as text: read as whole numbers, strictly. */
const queryId = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value),
  id,
);

/**
 * A photo of how an action was put right (docs/decisions/0586): added while the action is open by whoever
 * may close it, shown with the action.
 */
export const addActionPhoto = defineCall({
  path: '/api/add-action-photo',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  upload: 'photo',
  request: z.strictObject({ actionID: queryId }),
  response: z.object({ photo: actionPhoto }),
  failMsg: 'Unable to add the photo. Please try again.',
});

export const deleteActionPhoto = defineCall({
  path: '/api/delete-action-photo',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({ photoID: id }),
  response: z.object({ id }),
  failMsg: 'Unable to delete the photo. Please try again.',
});

export const getActionPhoto = defineCall({
  path: '/api/get-action-photo',
  method: 'GET',
  access: 'evaluator',
  mutates: false,
  file: true,
  image: true,
  request: z.strictObject({ photoID: queryId, size: z.enum(PHOTO_SIZES).default('full') }),
  response: z.unknown(),
  failMsg: 'Unable to get the photo. Please try again later.',
});
