/**
 * Schedules (issue 13, docs/decisions/0700-0703): stored rules, and their occurrences computed for a
 * bounded range with each one's status from the evaluations of its card on its board. The expansion and
 * the status rule are common/schedules.ts; this file loads, checks and presents.
 */
import {
  MINUTES_PER_DAY,
  OCCURRENCE_RANGE_MAX_DAYS,
  SCHEDULES_PER_CARD_MAX,
  describeRule,
  expandOccurrences,
  minutesOfTime,
  occurrenceStatus,
  rangeMessage,
  scheduleMessages,
  seesEverySchedule,
  timeOfMinutes,
  type ScheduleStatus,
  type ScheduleTiming,
} from '../../../common/schedules.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';

const DAY_MS = 86_400_000;
const ASSIGNABLE_ROLES: Role[] = ['evaluator', 'admin', 'owner'];

export interface Viewer {
  orgId: number;
  userId: number;
  role: Role;
}

export interface ScheduleRow extends ScheduleTiming {
  id: number;
  boardId: number;
  boardName: string;
  cardId: number;
  cardName: string;
  assignees: { id: number; email: string }[];
  createdAt: number;
}

export interface TimingInput {
  rule: string;
  startDate: string;
  endDate: string | null;
  windowStart: string | null;
  windowEnd: string | null;
  assigneeIDs: number[];
}

/** The window in minutes, both edges or neither (the whole day), end after start. */
export function timingOf(input: TimingInput): ScheduleTiming {
  if (input.endDate !== null && input.endDate < input.startDate)
    throw badRequest(scheduleMessages.endDate, 'endDate');
  if ((input.windowStart === null) !== (input.windowEnd === null))
    throw badRequest(scheduleMessages.window, input.windowStart === null ? 'windowStart' : 'windowEnd');
  const windowStart = input.windowStart === null ? 0 : minutesOfTime(input.windowStart)!;
  const windowEnd = input.windowEnd === null ? MINUTES_PER_DAY : minutesOfTime(input.windowEnd)!;
  if (windowStart >= MINUTES_PER_DAY) throw badRequest(scheduleMessages.window, 'windowStart');
  if (windowEnd <= windowStart) throw badRequest(scheduleMessages.window, 'windowEnd');
  return { rule: input.rule, startDate: input.startDate, endDate: input.endDate, windowStart, windowEnd };
}

/** Live members who may do a check (evaluators and above), or 400 naming assigneeIDs. */
async function checkAssignees(db: Db, orgId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('org_id', '=', orgId)
    .where('id', 'in', unique)
    .where('deleted_at', 'is', null)
    .where('role', 'in', ASSIGNABLE_ROLES)
    .execute();
  if (rows.length !== unique.length) throw badRequest(scheduleMessages.assignee, 'assigneeIDs');
  return unique;
}

/**
 * Schedules of live cards still on live boards of the organisation. `scheduleId`, `boardId` and
 * `assigneeId` narrow; nothing of another organisation is ever read.
 */
export async function loadSchedules(
  db: Db,
  orgId: number,
  filter: { scheduleId?: number; boardId?: number; assigneeId?: number },
): Promise<ScheduleRow[]> {
  const rows = await db
    .selectFrom('schedules')
    .innerJoin('boards', (join) =>
      join.onRef('boards.id', '=', 'schedules.board_id').onRef('boards.org_id', '=', 'schedules.org_id'),
    )
    .innerJoin('cards', (join) =>
      join.onRef('cards.id', '=', 'schedules.card_id').onRef('cards.org_id', '=', 'schedules.org_id'),
    )
    .innerJoin('board_cards', (join) =>
      join
        .onRef('board_cards.board_id', '=', 'schedules.board_id')
        .onRef('board_cards.card_id', '=', 'schedules.card_id')
        .onRef('board_cards.org_id', '=', 'schedules.org_id'),
    )
    .select([
      'schedules.id',
      'schedules.board_id',
      'schedules.card_id',
      'schedules.rule',
      'schedules.start_date',
      'schedules.end_date',
      'schedules.window_start',
      'schedules.window_end',
      'schedules.created_at',
      'boards.name as board_name',
      'cards.name as card_name',
    ])
    .where('schedules.org_id', '=', orgId)
    .where('boards.deleted_at', 'is', null)
    .where('cards.deleted_at', 'is', null)
    .$if(filter.scheduleId !== undefined, (qb) => qb.where('schedules.id', '=', filter.scheduleId!))
    .$if(filter.boardId !== undefined, (qb) => qb.where('schedules.board_id', '=', filter.boardId!))
    .$if(filter.assigneeId !== undefined, (qb) =>
      qb.where('schedules.id', 'in', (sub) =>
        sub
          .selectFrom('schedule_assignees')
          .select('schedule_id')
          .where('org_id', '=', orgId)
          .where('user_id', '=', filter.assigneeId!),
      ),
    )
    .orderBy('boards.name_key')
    .orderBy('cards.name_key')
    .orderBy('schedules.id')
    .execute();
  const assignees = rows.length
    ? await db
        .selectFrom('schedule_assignees')
        .innerJoin('users', (join) =>
          join
            .onRef('users.id', '=', 'schedule_assignees.user_id')
            .onRef('users.org_id', '=', 'schedule_assignees.org_id'),
        )
        .select(['schedule_assignees.schedule_id', 'users.id', 'users.email'])
        .where('schedule_assignees.org_id', '=', orgId)
        .where(
          'schedule_assignees.schedule_id',
          'in',
          rows.map((row) => row.id),
        )
        .where('users.deleted_at', 'is', null)
        .orderBy('users.email_key')
        .execute()
    : [];
  return rows.map((row) => ({
    id: row.id,
    boardId: row.board_id,
    boardName: row.board_name,
    cardId: row.card_id,
    cardName: row.card_name,
    rule: row.rule,
    startDate: row.start_date,
    endDate: row.end_date,
    windowStart: row.window_start,
    windowEnd: row.window_end,
    assignees: assignees.filter((a) => a.schedule_id === row.id).map((a) => ({ id: a.id, email: a.email })),
    createdAt: Number(row.created_at),
  }));
}

export function presentSchedule(row: ScheduleRow) {
  return {
    id: row.id,
    boardID: row.boardId,
    boardName: row.boardName,
    cardID: row.cardId,
    cardName: row.cardName,
    rule: row.rule,
    ruleText: describeRule(row.rule),
    startDate: row.startDate,
    endDate: row.endDate,
    windowStart: timeOfMinutes(row.windowStart),
    windowEnd: timeOfMinutes(row.windowEnd),
    assignees: row.assignees,
  };
}

export async function listSchedules(db: Db, viewer: Viewer, boardId: number | undefined) {
  return loadSchedules(db, viewer.orgId, {
    ...(boardId === undefined ? {} : { boardId }),
    ...(seesEverySchedule(viewer.role) ? {} : { assigneeId: viewer.userId }),
  });
}

async function oneSchedule(db: Db, orgId: number, scheduleId: number) {
  const [row] = await loadSchedules(db, orgId, { scheduleId });
  if (!row) throw notFound(scheduleMessages.notFound);
  return row;
}

async function writeAssignees(db: Db, orgId: number, scheduleId: number, ids: number[]) {
  await db
    .deleteFrom('schedule_assignees')
    .where('org_id', '=', orgId)
    .where('schedule_id', '=', scheduleId)
    .execute();
  if (ids.length)
    await db
      .insertInto('schedule_assignees')
      .values(ids.map((userId) => ({ org_id: orgId, schedule_id: scheduleId, user_id: userId })))
      .execute();
}

export async function addSchedule(
  db: Db,
  viewer: Viewer,
  input: TimingInput & { boardID: number; cardID: number },
  now: number,
) {
  const timing = timingOf(input);
  const onBoard = await db
    .selectFrom('board_cards')
    .innerJoin('boards', (join) =>
      join.onRef('boards.id', '=', 'board_cards.board_id').onRef('boards.org_id', '=', 'board_cards.org_id'),
    )
    .innerJoin('cards', (join) =>
      join.onRef('cards.id', '=', 'board_cards.card_id').onRef('cards.org_id', '=', 'board_cards.org_id'),
    )
    .select('boards.id')
    .where('board_cards.org_id', '=', viewer.orgId)
    .where('board_cards.board_id', '=', input.boardID)
    .where('board_cards.card_id', '=', input.cardID)
    .where('boards.deleted_at', 'is', null)
    .where('cards.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!onBoard) {
    // Another organisation's board or card is simply not found; our own card off this board is a 400.
    const board = await db
      .selectFrom('boards')
      .select('id')
      .where('org_id', '=', viewer.orgId)
      .where('id', '=', input.boardID)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!board) throw notFound('The board was not found.');
    throw badRequest(scheduleMessages.cardNotOnBoard, 'cardID');
  }
  const existing = await db
    .selectFrom('schedules')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('org_id', '=', viewer.orgId)
    .where('board_id', '=', input.boardID)
    .where('card_id', '=', input.cardID)
    .executeTakeFirstOrThrow();
  if (Number(existing.count) >= SCHEDULES_PER_CARD_MAX) throw conflict(scheduleMessages.tooMany);
  const assigneeIds = await checkAssignees(db, viewer.orgId, input.assigneeIDs);
  const inserted = await db
    .insertInto('schedules')
    .values({
      org_id: viewer.orgId,
      board_id: input.boardID,
      card_id: input.cardID,
      rule: timing.rule,
      start_date: timing.startDate,
      end_date: timing.endDate,
      window_start: timing.windowStart,
      window_end: timing.windowEnd,
      created_by_id: viewer.userId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeAssignees(db, viewer.orgId, inserted.id, assigneeIds);
  return oneSchedule(db, viewer.orgId, inserted.id);
}

export async function editSchedule(
  db: Db,
  viewer: Viewer,
  input: TimingInput & { scheduleID: number },
  now: number,
) {
  await oneSchedule(db, viewer.orgId, input.scheduleID);
  const timing = timingOf(input);
  const assigneeIds = await checkAssignees(db, viewer.orgId, input.assigneeIDs);
  await db
    .updateTable('schedules')
    .set({
      rule: timing.rule,
      start_date: timing.startDate,
      end_date: timing.endDate,
      window_start: timing.windowStart,
      window_end: timing.windowEnd,
      updated_at: now,
    })
    .where('org_id', '=', viewer.orgId)
    .where('id', '=', input.scheduleID)
    .execute();
  await writeAssignees(db, viewer.orgId, input.scheduleID, assigneeIds);
  return oneSchedule(db, viewer.orgId, input.scheduleID);
}

export async function deleteSchedule(db: Db, viewer: Viewer, scheduleId: number) {
  const deleted = await db
    .deleteFrom('schedules')
    .where('org_id', '=', viewer.orgId)
    .where('id', '=', scheduleId)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw notFound(scheduleMessages.notFound);
  return { id: scheduleId };
}

// --- Occurrences --------------------------------------------------------------------------------------

export interface ComputedOccurrence {
  schedule: ScheduleRow;
  date: string;
  start: number;
  end: number;
  nextStart: number | null;
  status: ScheduleStatus;
  completedAt: number | null;
}

/** A range the caller may ask for: forward and at most `maxDays` long. */
export function checkRange(start: string, end: string, maxDays = OCCURRENCE_RANGE_MAX_DAYS) {
  const from = Date.parse(start);
  const to = Date.parse(end);
  if (!(to > from) || to - from > maxDays * DAY_MS) throw badRequest(rangeMessage(maxDays), 'end');
  return { from, to };
}

/**
 * Every occurrence of the schedules whose window starts in [from, to), with its status at `now`. The
 * completions are read per board through the (org, board, card, completed_at) index, from the earliest
 * start to the latest moment a completion can still count (the next start, or now).
 */
export async function computeOccurrences(
  db: Db,
  orgId: number,
  schedules: ScheduleRow[],
  timeZone: string,
  range: { from: number; to: number },
  now: number,
): Promise<ComputedOccurrence[]> {
  const expanded = schedules.flatMap((schedule) =>
    expandOccurrences(schedule, timeZone, range.from, range.to).map((occurrence) => ({
      schedule,
      ...occurrence,
    })),
  );
  const byBoard = new Map<number, typeof expanded>();
  for (const occurrence of expanded) {
    const list = byBoard.get(occurrence.schedule.boardId) ?? [];
    list.push(occurrence);
    byBoard.set(occurrence.schedule.boardId, list);
  }
  const completions = new Map<string, number[]>();
  for (const [boardId, list] of byBoard) {
    const lowest = Math.min(...list.map((o) => o.start));
    const highest = Math.min(now + 1, Math.max(...list.map((o) => Math.max(o.end, o.nextStart ?? now + 1))));
    if (highest <= lowest) continue;
    const rows = await db
      .selectFrom('evaluations')
      .select(['card_id', 'completed_at'])
      .where('org_id', '=', orgId)
      .where('board_id', '=', boardId)
      .where('card_id', 'in', [...new Set(list.map((o) => o.schedule.cardId))])
      .where('completed_at', '>=', lowest)
      .where('completed_at', '<', highest)
      .orderBy('completed_at')
      .execute();
    for (const row of rows) {
      const key = `${boardId}:${row.card_id}`;
      const times = completions.get(key) ?? [];
      times.push(Number(row.completed_at));
      completions.set(key, times);
    }
  }
  return expanded
    .map((occurrence) => ({
      ...occurrence,
      ...occurrenceStatus(
        occurrence,
        completions.get(`${occurrence.schedule.boardId}:${occurrence.schedule.cardId}`) ?? [],
        now,
      ),
    }))
    .sort((a, b) => a.start - b.start || a.schedule.id - b.schedule.id);
}

export function presentOccurrence(occurrence: ComputedOccurrence, viewer: { userId: number }) {
  const { schedule } = occurrence;
  return {
    scheduleID: schedule.id,
    boardID: schedule.boardId,
    boardName: schedule.boardName,
    cardID: schedule.cardId,
    cardName: schedule.cardName,
    date: occurrence.date,
    start: new Date(occurrence.start).toISOString(),
    end: new Date(occurrence.end).toISOString(),
    status: occurrence.status,
    completedTime: occurrence.completedAt === null ? null : new Date(occurrence.completedAt).toISOString(),
    assignedToMe: schedule.assignees.some((a) => a.id === viewer.userId),
  };
}
