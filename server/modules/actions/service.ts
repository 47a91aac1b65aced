/**
 * Corrective actions (issue 12, docs/decisions/0670): raise one from a failed item (or, an administrator, on
 * a board), edit it, close it as Done with a note or Cancel it, each change kept in its history; list them
 * with keyset paging, and count the open ones of a board. Every query names the organisation; an action the
 * caller may not see is answered as not found, like another organisation's.
 */
import type { Action, ActionHistoryEntry, ActionsFilter } from '../../../common/api/index.ts';
import {
  isOverdue,
  isValidTimeZone,
  localDate,
  mayCompleteAction,
  mayManageAction,
  mayRaiseBoardAction,
  maySeeAction,
  seesEveryAction,
  type ActionPriority,
  type ActionRelation,
  type ActionStatus,
} from '../../../common/actions.ts';
import type { Role } from '../../../common/roles.ts';
import type { UserActor } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { enqueueEvents } from '../shared/webhookEvents.ts';
import type { ActionHistoryTable } from '../../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { findLiveBoard } from '../shared/boards.ts';

export const messages = {
  actionNotFound: 'The action was not found.',
  evaluationNotFound: 'The evaluation was not found.',
  itemNeeded: 'Name the failed item the action is raised from.',
  itemNeedsEvaluation: 'An item is named with its evaluation.',
  notAFailedItem: 'An action is raised from a failed Pass/Fail item of the evaluation.',
  boardActionAdminsOnly: 'Only an administrator can raise an action without an evaluation.',
  assignee: 'Assign the action to a member of the organisation who evaluates (Evaluator or above).',
  unknownTimeZone: 'Unknown time zone.',
  notYours: 'Only the member who raised the action or an administrator can change it.',
  closed: 'This action is already closed.',
  cursorNeedsDate: 'previousDueDate is required with previousID.',
};

/** Who is looking: the session's member. */
export interface Viewer {
  orgId: number;
  userId: number;
  email: string;
  role: Role;
}

export const viewerOf = (actor: UserActor): Viewer => ({
  orgId: actor.orgId,
  userId: actor.userId,
  email: actor.email,
  role: actor.role,
});

const ASSIGNABLE_ROLES: Role[] = ['evaluator', 'admin', 'owner'];

const actionColumns = [
  'actions.id',
  'actions.board_id',
  'actions.board_name',
  'actions.evaluation_id',
  'actions.card_id',
  'actions.card_name',
  'actions.item_id',
  'actions.title',
  'actions.description',
  'actions.status',
  'actions.priority',
  'actions.due_date',
  'actions.time_zone',
  'actions.assignee_id',
  'actions.raised_by_id',
  'actions.raised_by_name',
  'actions.close_note',
  'actions.closed_at',
  'actions.created_at',
  'actions.updated_at',
] as const;

export interface ActionRow {
  id: number;
  board_id: number;
  board_name: string;
  evaluation_id: number | null;
  card_id: number | null;
  card_name: string | null;
  item_id: number | null;
  title: string;
  description: string;
  status: ActionStatus;
  priority: ActionPriority;
  due_date: string;
  time_zone: string;
  assignee_id: number;
  raised_by_id: number;
  raised_by_name: string;
  close_note: string | null;
  closed_at: number | null;
  created_at: number;
  updated_at: number;
  assignee_email: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function relation(
  viewer: Viewer,
  row: Pick<ActionRow, 'assignee_id' | 'raised_by_id'>,
): ActionRelation {
  return { isAssignee: row.assignee_id === viewer.userId, isRaiser: row.raised_by_id === viewer.userId };
}

export function rowIsOverdue(row: Pick<ActionRow, 'status' | 'due_date' | 'time_zone'>, now: number) {
  return isOverdue({ status: row.status, dueDate: row.due_date }, localDate(now, row.time_zone));
}

export function presentAction(viewer: Viewer, row: ActionRow, now: number): Action {
  const rel = relation(viewer, row);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    dueDate: row.due_date,
    isOverdue: rowIsOverdue(row, now),
    boardID: row.board_id,
    boardName: row.board_name,
    evalID: row.evaluation_id,
    cardID: row.card_id,
    cardName: row.card_name,
    itemID: row.item_id,
    assigneeID: row.assignee_id,
    assigneeName: row.assignee_email,
    raisedByName: row.raised_by_name,
    closeNote: row.close_note,
    createdTime: iso(row.created_at),
    updatedTime: iso(row.updated_at),
    closedTime: row.closed_at === null ? null : iso(row.closed_at),
    isAssignee: rel.isAssignee,
    isRaiser: rel.isRaiser,
  };
}

/** An action as a webhook tells it (decision 0585): as presented, without what depends on who reads it. */
function webhookAction(viewer: Viewer, row: ActionRow, now: number) {
  const { isAssignee: _assignee, isRaiser: _raiser, ...action } = presentAction(viewer, row, now);
  return action;
}

/** Actions of the organisation with their assignee's address (the join names the organisation too). */
function actionsQuery(db: Db, orgId: number) {
  return db
    .selectFrom('actions')
    .innerJoin('users', (join) =>
      join.onRef('users.id', '=', 'actions.assignee_id').onRef('users.org_id', '=', 'actions.org_id'),
    )
    .select([...actionColumns, 'users.email as assignee_email'])
    .where('actions.org_id', '=', orgId);
}

/** The action if the viewer may see it; otherwise (another organisation's, or not theirs) not found. */
export async function findVisibleAction(db: Db, viewer: Viewer, actionId: number): Promise<ActionRow> {
  const row = await actionsQuery(db, viewer.orgId).where('actions.id', '=', actionId).executeTakeFirst();
  if (!row || !maySeeAction(viewer.role, relation(viewer, row))) throw notFound(messages.actionNotFound);
  return row;
}

/** A member an action may be assigned to: live, of the organisation, Evaluator or above. */
async function findAssignee(db: Db, orgId: number, userId: number) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('org_id', '=', orgId)
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .where('role', 'in', ASSIGNABLE_ROLES)
    .executeTakeFirst();
  if (!user) throw badRequest(messages.assignee, 'assigneeID');
  return user;
}

export async function listAssignees(db: Db, orgId: number) {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .where('role', 'in', ASSIGNABLE_ROLES)
    .orderBy('email_key')
    .execute();
  return rows;
}

type Change = { field: string; from: string; to: string };

async function record(
  db: Db,
  viewer: Viewer,
  actionId: number,
  entry: { event: ActionHistoryTable['event']; changes?: Change[]; note?: string | null },
  now: number,
) {
  await db
    .insertInto('action_history')
    .values({
      org_id: viewer.orgId,
      action_id: actionId,
      user_id: viewer.userId,
      user_name: viewer.email,
      event: entry.event,
      changes: JSON.stringify(entry.changes ?? []),
      note: entry.note ?? null,
      created_at: now,
    })
    .execute();
}

export interface ActionFields {
  title: string;
  description: string;
  assigneeID: number;
  dueDate: string;
  priority: ActionPriority;
}

/** What an assignment email needs; sent by the caller after the commit. */
export interface Assigned {
  action: Action;
  assigneeEmail: string;
  /** Nobody mails themselves: an action one assigns to oneself sends nothing. */
  notify: boolean;
}

/** add-action: from a failed item of an evaluation, or (administrators) on the board. */
export async function raiseAction(
  db: Db,
  viewer: Viewer,
  input: ActionFields & {
    boardID: number;
    evalID?: number | null | undefined;
    itemID?: number | null | undefined;
    timeZone?: string | undefined;
  },
  now: number,
): Promise<Assigned> {
  const board = await findLiveBoard(db, { orgId: viewer.orgId, boardId: input.boardID });
  let source: { evaluationId: number; cardId: number; cardName: string; itemId: number } | null = null;
  if (input.evalID != null) {
    if (input.itemID == null) throw badRequest(messages.itemNeeded, 'itemID');
    const evaluation = await db
      .selectFrom('evaluations')
      .select(['id', 'card_id', 'card_name', 'user_id', 'completed_at'])
      .where('org_id', '=', viewer.orgId)
      .where('id', '=', input.evalID)
      .where('board_id', '=', board.id)
      .executeTakeFirst();
    // An unfinished evaluation is its evaluator's alone: hidden from everyone else, like everywhere.
    if (!evaluation || (evaluation.completed_at === null && evaluation.user_id !== viewer.userId)) {
      throw notFound(messages.evaluationNotFound);
    }
    if (evaluation.completed_at !== null) {
      const failed = await db
        .selectFrom('results')
        .select('id')
        .where('org_id', '=', viewer.orgId)
        .where('evaluation_id', '=', evaluation.id)
        .where('item_id', '=', input.itemID)
        .where('item_type', '=', 'pass_fail')
        .where('pass', '=', 0)
        .executeTakeFirst();
      if (!failed) throw badRequest(messages.notAFailedItem, 'itemID');
    } else {
      // During the evaluation its answers are not stored yet: the item must be a Pass/Fail item of the card.
      const item = await db
        .selectFrom('card_items')
        .select('id')
        .where('org_id', '=', viewer.orgId)
        .where('card_id', '=', evaluation.card_id)
        .where('id', '=', input.itemID)
        .where('type', '=', 'pass_fail')
        .where('is_deleted', '=', 0)
        .executeTakeFirst();
      if (!item) throw badRequest(messages.notAFailedItem, 'itemID');
    }
    source = {
      evaluationId: evaluation.id,
      cardId: evaluation.card_id,
      cardName: evaluation.card_name,
      itemId: input.itemID,
    };
  } else {
    if (input.itemID != null) throw badRequest(messages.itemNeedsEvaluation, 'evalID');
    if (!mayRaiseBoardAction(viewer.role)) throw forbidden(messages.boardActionAdminsOnly);
  }
  const assignee = await findAssignee(db, viewer.orgId, input.assigneeID);
  const timeZone = input.timeZone ?? 'UTC';
  if (!isValidTimeZone(timeZone)) throw badRequest(messages.unknownTimeZone, 'timeZone');

  const inserted = await db
    .insertInto('actions')
    .values({
      org_id: viewer.orgId,
      board_id: board.id,
      board_name: board.name,
      evaluation_id: source?.evaluationId ?? null,
      card_id: source?.cardId ?? null,
      card_name: source?.cardName ?? null,
      item_id: source?.itemId ?? null,
      title: input.title,
      description: input.description,
      status: 'Open',
      priority: input.priority,
      due_date: input.dueDate,
      time_zone: timeZone,
      assignee_id: assignee.id,
      raised_by_id: viewer.userId,
      raised_by_name: viewer.email,
      close_note: null,
      closed_at: null,
      created_at: now,
      updated_at: now,
      due_reminded_at: null,
      overdue_reminded_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await record(db, viewer, inserted.id, { event: 'Raised' }, now);
  const row = await findVisibleAction(db, viewer, inserted.id);
  await enqueueEvents(db, viewer.orgId, ['action.created'], { action: webhookAction(viewer, row, now) }, now);
  return {
    action: presentAction(viewer, row, now),
    assigneeEmail: assignee.email,
    notify: assignee.id !== viewer.userId,
  };
}

function requireOpen(row: ActionRow) {
  if (row.status !== 'Open') throw conflict(messages.closed);
}

/** edit-action: the raiser or an administrator changes an open action; each changed field is recorded. */
export async function editAction(
  db: Db,
  viewer: Viewer,
  input: ActionFields & { actionID: number },
  now: number,
): Promise<Assigned | { action: Action; notify: false }> {
  const row = await findVisibleAction(db, viewer, input.actionID);
  if (!mayManageAction(viewer.role, relation(viewer, row))) throw forbidden(messages.notYours);
  requireOpen(row);
  const assignee =
    input.assigneeID === row.assignee_id
      ? { id: row.assignee_id, email: row.assignee_email }
      : await findAssignee(db, viewer.orgId, input.assigneeID);
  const changes: Change[] = [];
  const compare = (field: string, from: string, to: string) => {
    if (from !== to) changes.push({ field, from, to });
  };
  compare('Title', row.title, input.title);
  compare('Description', row.description, input.description);
  compare('Assignee', row.assignee_email, assignee.email);
  compare('Due date', row.due_date, input.dueDate);
  compare('Priority', row.priority, input.priority);
  if (!changes.length) return { action: presentAction(viewer, row, now), notify: false };

  // A new due date, or a new assignee, gets its own reminders.
  const remindAgain = row.due_date !== input.dueDate || assignee.id !== row.assignee_id;
  const updated = await db
    .updateTable('actions')
    .set({
      title: input.title,
      description: input.description,
      assignee_id: assignee.id,
      due_date: input.dueDate,
      priority: input.priority,
      updated_at: now,
      ...(remindAgain ? { due_reminded_at: null, overdue_reminded_at: null } : {}),
    })
    .where('org_id', '=', viewer.orgId)
    .where('id', '=', row.id)
    .where('status', '=', 'Open')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw conflict(messages.closed);
  await record(db, viewer, row.id, { event: 'Edited', changes }, now);
  const fresh = await findVisibleAction(db, viewer, row.id);
  const reassigned = assignee.id !== row.assignee_id;
  return {
    action: presentAction(viewer, fresh, now),
    assigneeEmail: assignee.email,
    notify: reassigned && assignee.id !== viewer.userId,
  };
}

/** complete-action (Done, with a note) and cancel-action: claimed so two closings cannot both apply. */
export async function closeAction(
  db: Db,
  viewer: Viewer,
  input: { actionID: number; status: 'Done' | 'Cancelled'; note: string | null },
  now: number,
): Promise<Action> {
  const row = await findVisibleAction(db, viewer, input.actionID);
  const rel = relation(viewer, row);
  const allowed =
    input.status === 'Done' ? mayCompleteAction(viewer.role, rel) : mayManageAction(viewer.role, rel);
  if (!allowed) throw forbidden(messages.notYours);
  requireOpen(row);
  const note = input.note ? input.note : null;
  const claimed = await db
    .updateTable('actions')
    .set({ status: input.status, close_note: note, closed_at: now, updated_at: now })
    .where('org_id', '=', viewer.orgId)
    .where('id', '=', row.id)
    .where('status', '=', 'Open')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw conflict(messages.closed);
  await record(db, viewer, row.id, { event: input.status, note }, now);
  const closed = await findVisibleAction(db, viewer, row.id);
  await enqueueEvents(
    db,
    viewer.orgId,
    ['action.closed'],
    { action: webhookAction(viewer, closed, now) },
    now,
  );
  return presentAction(viewer, closed, now);
}

export async function actionWithHistory(
  db: Db,
  viewer: Viewer,
  actionId: number,
  now: number,
): Promise<{ action: Action; history: ActionHistoryEntry[] }> {
  const row = await findVisibleAction(db, viewer, actionId);
  const history = await db
    .selectFrom('action_history')
    .select(['id', 'user_name', 'event', 'changes', 'note', 'created_at'])
    .where('org_id', '=', viewer.orgId)
    .where('action_id', '=', row.id)
    .orderBy('id')
    .execute();
  return {
    action: presentAction(viewer, row, now),
    history: history.map((entry) => ({
      id: entry.id,
      time: iso(entry.created_at),
      userName: entry.user_name,
      event: entry.event,
      changes: JSON.parse(entry.changes) as Change[],
      note: entry.note,
    })),
  };
}

export interface ActionsPageFilter {
  /** Every action of the organisation (administrators asking for all), or the viewer's own. */
  everyone: boolean;
  userId: number;
  status: ActionStatus | null;
  boardId: number | null;
  assigneeId: number | null;
  dueFrom: string | null;
  dueTo: string | null;
  after: { dueDate: string; id: number } | null;
}

export function pageFilter(input: ActionsFilter, viewer: Viewer): ActionsPageFilter {
  if (input.previousID != null && !input.previousDueDate) {
    throw badRequest(messages.cursorNeedsDate, 'previousDueDate');
  }
  return {
    everyone: input.scope === 'all' && seesEveryAction(viewer.role),
    userId: viewer.userId,
    status: input.status ?? null,
    boardId: input.boardID ?? null,
    assigneeId: input.assigneeID ?? null,
    dueFrom: input.dueFrom ?? null,
    dueTo: input.dueTo ?? null,
    after: input.previousDueDate ? { dueDate: input.previousDueDate, id: input.previousID ?? 0 } : null,
  };
}

/** One keyset page, by due date then id (the most urgent first): the Actions tab and the export's batches. */
export function actionsPage(db: Db, orgId: number, filter: ActionsPageFilter, limit: number) {
  let query = actionsQuery(db, orgId);
  if (!filter.everyone) {
    query = query.where((eb) =>
      eb.or([eb('actions.assignee_id', '=', filter.userId), eb('actions.raised_by_id', '=', filter.userId)]),
    );
  }
  if (filter.status) query = query.where('actions.status', '=', filter.status);
  if (filter.boardId !== null) query = query.where('actions.board_id', '=', filter.boardId);
  if (filter.assigneeId !== null) query = query.where('actions.assignee_id', '=', filter.assigneeId);
  if (filter.dueFrom) query = query.where('actions.due_date', '>=', filter.dueFrom);
  if (filter.dueTo) query = query.where('actions.due_date', '<=', filter.dueTo);
  const after = filter.after;
  if (after) {
    // The range first (an index range on due_date), then the tie-break on id within the cursor's day.
    query = query
      .where('actions.due_date', '>=', after.dueDate)
      .where((eb) => eb.or([eb('actions.due_date', '>', after.dueDate), eb('actions.id', '>', after.id)]));
  }
  return query.orderBy('actions.due_date').orderBy('actions.id').limit(limit).execute();
}

/** get-board-action-counts: open actions per card and per evaluation of one board. */
export async function boardCounts(db: Db, orgId: number, boardId: number) {
  const board = await findLiveBoard(db, { orgId, boardId });
  const rows = await db
    .selectFrom('actions')
    .select(['card_id', 'evaluation_id', (eb) => eb.fn.countAll<number>().as('open')])
    .where('org_id', '=', orgId)
    .where('board_id', '=', board.id)
    .where('status', '=', 'Open')
    .groupBy(['card_id', 'evaluation_id'])
    .execute();
  const cards = new Map<number, number>();
  const evaluations: { evalID: number; open: number }[] = [];
  for (const row of rows) {
    const open = Number(row.open);
    if (row.card_id !== null) cards.set(row.card_id, (cards.get(row.card_id) ?? 0) + open);
    if (row.evaluation_id !== null) evaluations.push({ evalID: row.evaluation_id, open });
  }
  return {
    cards: [...cards].map(([cardID, open]) => ({ cardID, open })),
    evaluations,
  };
}
