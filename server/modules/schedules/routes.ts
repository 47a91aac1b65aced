import {
  COMPLIANCE_RANGE_MAX_DAYS,
  addDays,
  complianceRate,
  floatingDay,
  localDay,
  zonedInstant,
} from '../../../common/schedules.ts';
import type { UserActor } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { defineHandlers } from '../../http/handlers.ts';
import { findLiveBoard } from '../shared/boards.ts';
import { getOrgTimeZone } from '../shared/orgTimeZone.ts';
import {
  addSchedule,
  checkRange,
  computeOccurrences,
  deleteSchedule,
  editSchedule,
  listSchedules,
  loadSchedules,
  presentOccurrence,
  presentSchedule,
  type Viewer,
} from './service.ts';

const viewerOf = (actor: UserActor): Viewer => ({
  orgId: actor.orgId,
  userId: actor.userId,
  role: actor.role,
});

/** One board's schedules for any member (after checking the board is theirs), else the caller's scope. */
async function schedulesInView(db: Db, viewer: Viewer, boardId: number | undefined) {
  if (boardId !== undefined) {
    await findLiveBoard(db, { orgId: viewer.orgId, boardId });
    return loadSchedules(db, viewer.orgId, { boardId });
  }
  return listSchedules(db, viewer, undefined);
}

export const scheduleHandlers = defineHandlers({
  getSchedules: async (input, ctx) => {
    const viewer = viewerOf(ctx.actor);
    if (input.boardID !== undefined)
      await findLiveBoard(ctx.db, { orgId: viewer.orgId, boardId: input.boardID });
    const rows = await listSchedules(ctx.db, viewer, input.boardID);
    return { schedules: rows.map(presentSchedule), timeZone: await getOrgTimeZone(ctx.db, viewer.orgId) };
  },
  addSchedule: async (input, ctx) => ({
    schedule: presentSchedule(await addSchedule(ctx.db, viewerOf(ctx.actor), input, ctx.now)),
  }),
  editSchedule: async (input, ctx) => ({
    schedule: presentSchedule(await editSchedule(ctx.db, viewerOf(ctx.actor), input, ctx.now)),
  }),
  deleteSchedule: (input, ctx) => deleteSchedule(ctx.db, viewerOf(ctx.actor), input.scheduleID),
  getScheduleOccurrences: async (input, ctx) => {
    const viewer = viewerOf(ctx.actor);
    const range = checkRange(input.start, input.end);
    const schedules = await schedulesInView(ctx.db, viewer, input.boardID);
    const timeZone = await getOrgTimeZone(ctx.db, viewer.orgId);
    const occurrences = await computeOccurrences(ctx.db, viewer.orgId, schedules, timeZone, range, ctx.now);
    return { occurrences: occurrences.map((o) => presentOccurrence(o, viewer)), timeZone };
  },
  getBoardScheduleCounts: async (_input, ctx) => {
    const { orgId } = ctx.actor;
    const timeZone = await getOrgTimeZone(ctx.db, orgId);
    const today = localDay(ctx.now, timeZone);
    // The week runs from Sunday, as the board's calendars do.
    const weekStart = addDays(today, -new Date(floatingDay(today)).getUTCDay());
    const range = {
      from: zonedInstant(weekStart, 0, timeZone),
      to: zonedInstant(addDays(today, 1), 0, timeZone),
    };
    const schedules = await loadSchedules(ctx.db, orgId, {});
    const occurrences = await computeOccurrences(ctx.db, orgId, schedules, timeZone, range, ctx.now);
    const counts = new Map<number, { boardID: number; dueToday: number; missedThisWeek: number }>();
    for (const occurrence of occurrences) {
      const boardID = occurrence.schedule.boardId;
      const entry = counts.get(boardID) ?? { boardID, dueToday: 0, missedThisWeek: 0 };
      if (occurrence.status === 'Due' && occurrence.date === today) entry.dueToday += 1;
      if (occurrence.status === 'Missed') entry.missedThisWeek += 1;
      counts.set(boardID, entry);
    }
    return { boards: [...counts.values()], timeZone };
  },
  getScheduleCompliance: async (input, ctx) => {
    const viewer = viewerOf(ctx.actor);
    const range = checkRange(input.start, input.end, COMPLIANCE_RANGE_MAX_DAYS);
    const schedules = await schedulesInView(ctx.db, viewer, input.boardID);
    const timeZone = await getOrgTimeZone(ctx.db, viewer.orgId);
    // Occurrences that ended in the range (a window starts at most a day and a bit before it ends).
    const occurrences = (
      await computeOccurrences(
        ctx.db,
        viewer.orgId,
        schedules,
        timeZone,
        { from: range.from - 2 * 86_400_000, to: range.to },
        ctx.now,
      )
    ).filter((o) => o.end >= range.from && o.end < range.to && o.end <= ctx.now);
    type Tally = { id: number; name: string; done: number; late: number; missed: number };
    const rows = new Map<number, Tally>();
    const total = { done: 0, late: 0, missed: 0 };
    for (const occurrence of occurrences) {
      const { schedule } = occurrence;
      const [key, name] =
        input.boardID === undefined
          ? [schedule.boardId, schedule.boardName]
          : [schedule.cardId, schedule.cardName];
      const tally = rows.get(key) ?? { id: key, name, done: 0, late: 0, missed: 0 };
      const field = occurrence.status === 'Done' ? 'done' : occurrence.status === 'Late' ? 'late' : 'missed';
      tally[field] += 1;
      total[field] += 1;
      rows.set(key, tally);
    }
    return {
      rows: [...rows.values()].map((tally) => ({ ...tally, rate: complianceRate(tally) })),
      total: { ...total, rate: complianceRate(total) },
      timeZone,
    };
  },
});
