/**
 * Schedules (issue 13, docs/decisions/0700-0703): our additions to the contract. An administrator gives a
 * card on a board a repeat rule in the organisation's time zone, with a daily window and assignees; each
 * occurrence is Due, Done, Missed or Late, computed from the rule and the evaluations (never stored).
 */
import { z } from 'zod';
import { defineCall } from './define.ts';
import { dateTime, id } from './entities.ts';
import {
  occurrence,
  orgTimeZone as timeZone,
  schedule,
  scheduleTimingFields as timingFields,
} from './scheduleTypes.ts';

export const getSchedules = defineCall({
  path: '/api/get-schedules',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  /** Administrators: every schedule (of one board with boardID); evaluators: those assigned to them. */
  request: z.strictObject({ boardID: id.optional() }),
  response: z.object({ schedules: z.array(schedule), timeZone }),
  failMsg: 'Could not get schedules. Please try again later.',
});

export const addSchedule = defineCall({
  path: '/api/add-schedule',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ boardID: id, cardID: id, ...timingFields }),
  response: z.object({ schedule }),
  failMsg: 'Could not add the schedule. Please try again later.',
});

export const editSchedule = defineCall({
  path: '/api/edit-schedule',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ scheduleID: id, ...timingFields }),
  response: z.object({ schedule }),
  failMsg: 'Could not edit the schedule. Please try again later.',
});

export const deleteSchedule = defineCall({
  path: '/api/delete-schedule',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ scheduleID: id }),
  response: z.object({ id }),
  failMsg: 'Could not delete the schedule. Please try again later.',
});

/**
 * The occurrences whose window starts in [start, end) (at most 62 days). With boardID: every schedule of
 * that board, for any member (the board view). Without: an administrator's every schedule, anyone
 * else's assigned ones (the Schedule tab).
 */
export const getScheduleOccurrences = defineCall({
  path: '/api/get-schedule-occurrences',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({ start: dateTime, end: dateTime, boardID: id.optional() }),
  response: z.object({ occurrences: z.array(occurrence), timeZone }),
  failMsg: 'Could not get the schedule. Please try again later.',
});

/** The boards panel: per board, checks still due today and missed this week (from Sunday), in the org's zone. */
export const getBoardScheduleCounts = defineCall({
  path: '/api/get-board-schedule-counts',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({}),
  response: z.object({
    boards: z.array(z.object({ boardID: id, dueToday: z.number().int(), missedThisWeek: z.number().int() })),
    timeZone,
  }),
  failMsg: 'Could not get the schedule. Please try again later.',
});

/**
 * Compliance (done on time / due) over the occurrences that ended in [start, end) (at most 366 days):
 * per board, or per card of one board with boardID. An analytics report (administrators).
 */
export const getScheduleCompliance = defineCall({
  path: '/api/get-schedule-compliance',
  method: 'POST',
  access: 'admin',
  mutates: false,
  request: z.strictObject({ start: dateTime, end: dateTime, boardID: id.optional() }),
  response: z.object({
    rows: z.array(
      z.object({
        id,
        name: z.string(),
        done: z.number().int(),
        late: z.number().int(),
        missed: z.number().int(),
        /** done / (done + late + missed); null when none was due. */
        rate: z.number().nullable(),
      }),
    ),
    total: z.object({
      done: z.number().int(),
      late: z.number().int(),
      missed: z.number().int(),
      rate: z.number().nullable(),
    }),
    timeZone,
  }),
  failMsg: 'Could not get the report. Please try again later.',
});
