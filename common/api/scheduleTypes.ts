/** The objects of the schedule calls (issue 13, docs/decisions/0700-0703). */
import { z } from 'zod';
import {
  SCHEDULE_ASSIGNEES_MAX,
  SCHEDULE_RULE_MAX,
  SCHEDULE_STATUSES,
  minutesOfTime,
  normaliseRule,
  scheduleMessages,
} from '../schedules.ts';
import { calendarDate } from './actionTypes.ts';
import { dateTime, id } from './entities.ts';

/** A window edge, "HH:MM" of the local day ("24:00" ends it at midnight). */
const windowTime = z.string().refine((value) => minutesOfTime(value) !== null, scheduleMessages.window);

const rule = z
  .string()
  .max(SCHEDULE_RULE_MAX, scheduleMessages.ruleLength)
  .transform((value, ctx) => {
    const normal = normaliseRule(value);
    if (normal === null) {
      ctx.addIssue({ code: 'custom', message: scheduleMessages.rule });
      return z.NEVER;
    }
    return normal;
  });

export const scheduleTimingFields = {
  rule,
  startDate: calendarDate,
  endDate: calendarDate.nullable().default(null),
  /** Both or neither: without them the window is the whole local day. */
  windowStart: windowTime.nullable().default(null),
  windowEnd: windowTime.nullable().default(null),
  assigneeIDs: z.array(id).max(SCHEDULE_ASSIGNEES_MAX).default([]),
};

const member = z.object({ id, email: z.string() });

export const schedule = z.object({
  id,
  boardID: id,
  boardName: z.string(),
  cardID: id,
  cardName: z.string(),
  rule: z.string(),
  /** The rule in words ("every week on Monday, Thursday"). */
  ruleText: z.string(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  windowStart: z.string(),
  windowEnd: z.string(),
  assignees: z.array(member),
});
export type Schedule = z.infer<typeof schedule>;

export const occurrence = z.object({
  scheduleID: id,
  boardID: id,
  boardName: z.string(),
  cardID: id,
  cardName: z.string(),
  /** The occurrence's day in the organisation's zone. */
  date: z.string(),
  start: dateTime,
  end: dateTime,
  status: z.enum(SCHEDULE_STATUSES),
  /** The evaluation that made it Done or Late. */
  completedTime: dateTime.nullable(),
  /** Whether the caller is one of its assignees. */
  assignedToMe: z.boolean(),
});
export type ScheduleOccurrence = z.infer<typeof occurrence>;

/** The organisation's IANA zone, in which every schedule's days and windows are counted. */
export const orgTimeZone = z.string();
