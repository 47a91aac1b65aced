/**
 * Schedules (issue 13, docs/decisions/0700-0703): when a card is due on a board, and whether each occurrence
 * was done. One rule for the server (lists, counts, reminders, compliance) and the browser (the schedule
 * form's presets and wording).
 *
 * A schedule is an iCalendar RRULE over calendar days, in the organisation's time zone, with a daily
 * window of local wall-clock time (the whole day without one). The rule is expanded with `rrule` over
 * *floating* days (each local day written as UTC midnight), never over instants, so a clock change cannot
 * move a day; each day's window is then placed in the zone by `zonedInstant`.
 */
import { tzOffset } from '@date-fns/tz';
import * as rruleModule from 'rrule';
import { hasRole, type Role } from './roles.ts';

// rrule ships a UMD bundle for Node (no named exports to Node's ESM loader) and ES modules for bundlers.
const { RRule, Frequency } =
  (rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule;

export const SCHEDULE_RULE_MAX = 300;
/** A board's card holds at most this many schedules (a morning and an evening check, a monthly audit…). */
export const SCHEDULES_PER_CARD_MAX = 5;
export const SCHEDULE_ASSIGNEES_MAX = 50;
/** The widest range get-schedule-occurrences expands at once. */
export const OCCURRENCE_RANGE_MAX_DAYS = 62;
export const MINUTES_PER_DAY = 1440;

export const SCHEDULE_STATUSES = ['Due', 'Done', 'Missed', 'Late'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** A range must run forward and span at most `days` days (62 for occurrences, 366 for compliance). */
export const rangeMessage = (days: number) => `A range runs forward and spans at most ${days} days.`;
// In constants.ts, so the analytics screen can read it without loading the rule library.
export { COMPLIANCE_RANGE_MAX_DAYS } from './constants.ts';

export const scheduleMessages = {
  rule: 'Enter a repeat rule: FREQ=DAILY, WEEKLY, MONTHLY or YEARLY, with no time of day (the window sets it).',
  ruleLength: `The repeat rule is at most ${SCHEDULE_RULE_MAX} characters.`,
  window: 'Enter the window as two times HH:MM, the end after the start (24:00 for midnight).',
  endDate: 'The end date cannot be before the start date.',
  assignee: 'Each assignee must be an evaluator, administrator or owner of the organisation.',
  tooMany: `A card has at most ${SCHEDULES_PER_CARD_MAX} schedules on a board.`,
  cardNotOnBoard: 'The card is not on this board.',
  notFound: 'Schedule not found.',
} as const;

/** Administrators manage schedules; evaluators see those assigned to them (docs/decisions/0701). */
export const managesSchedules = (role: Role) => hasRole(role, 'admin');
export const seesEverySchedule = managesSchedules;

/** What a schedule says, as stored and on the wire (dates YYYY-MM-DD, window in minutes of the local day). */
export interface ScheduleTiming {
  rule: string;
  startDate: string;
  endDate: string | null;
  /** Minutes after local midnight; [0, 1440) for the whole day. */
  windowStart: number;
  windowEnd: number;
}

export interface Occurrence {
  /** The local calendar day (YYYY-MM-DD) in the schedule's zone. */
  date: string;
  start: number;
  end: number;
  /** When the next occurrence starts (a late completion counts up to it); null when there is none. */
  nextStart: number | null;
}

const ALLOWED_FREQUENCIES = new Set<number>([
  Frequency.YEARLY,
  Frequency.MONTHLY,
  Frequency.WEEKLY,
  Frequency.DAILY,
]);
const RULE_CHARACTERS = /^[A-Z0-9=;,+\-:]+$/;

type RuleOptions = ReturnType<typeof RRule.parseString>;

/** The rule's options, or null when it is not a day-level RRULE we accept. */
export function parseRule(rule: string): RuleOptions | null {
  const text = rule
    .trim()
    .replace(/^RRULE:/i, '')
    .toUpperCase();
  if (!text || text.length > SCHEDULE_RULE_MAX || !RULE_CHARACTERS.test(text)) return null;
  let options: RuleOptions;
  try {
    options = RRule.parseString(text);
  } catch {
    return null;
  }
  if (typeof options.freq !== 'number' || !ALLOWED_FREQUENCIES.has(options.freq)) return null;
  // The window, the start date and the organisation's zone say when: a rule may not say it again.
  const refused = ['byhour', 'byminute', 'bysecond', 'dtstart', 'tzid', 'byeaster'] as const;
  if (refused.some((key) => options[key] !== undefined && options[key] !== null)) return null;
  if (options.interval !== undefined && (options.interval < 1 || options.interval > 1000)) return null;
  return options;
}

/** The rule in its canonical text (upper case, no "RRULE:" prefix), or null when refused. */
export function normaliseRule(rule: string): string | null {
  const options = parseRule(rule);
  if (!options) return null;
  return RRule.optionsToString(options).replace(/^RRULE:/, '');
}

/** The simple forms the schedule form offers; anything else is edited as a custom rule. */
export type RulePreset =
  | { kind: 'daily' }
  | { kind: 'weekdays'; days: Weekday[] }
  | { kind: 'weeks'; every: number; days: Weekday[] }
  | { kind: 'monthly'; day: number }
  | { kind: 'custom'; rule: string };

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

const sortDays = (days: Weekday[]) => WEEKDAYS.filter((day) => days.includes(day));

export function ruleOfPreset(preset: RulePreset): string {
  switch (preset.kind) {
    case 'daily':
      return 'FREQ=DAILY';
    case 'weekdays':
      return `FREQ=WEEKLY;BYDAY=${sortDays(preset.days).join(',')}`;
    case 'weeks':
      return `FREQ=WEEKLY;INTERVAL=${preset.every};BYDAY=${sortDays(preset.days).join(',')}`;
    case 'monthly':
      return `FREQ=MONTHLY;BYMONTHDAY=${preset.day}`;
    case 'custom':
      return preset.rule
        .trim()
        .replace(/^RRULE:/i, '')
        .toUpperCase();
  }
}

/** The preset a stored rule is (for the edit form); a rule no preset writes is 'custom'. */
export function presetOfRule(rule: string): RulePreset {
  const daily = /^FREQ=DAILY$/.exec(rule);
  if (daily) return { kind: 'daily' };
  const weekly =
    /^FREQ=WEEKLY(?:;INTERVAL=(\d+))?;BYDAY=((?:MO|TU|WE|TH|FR|SA|SU)(?:,(?:MO|TU|WE|TH|FR|SA|SU))*)$/.exec(
      rule,
    );
  if (weekly) {
    const days = sortDays(weekly[2]!.split(',') as Weekday[]);
    const every = Number(weekly[1] ?? 1);
    return every === 1 ? { kind: 'weekdays', days } : { kind: 'weeks', every, days };
  }
  const monthly = /^FREQ=MONTHLY;BYMONTHDAY=(\d{1,2})$/.exec(rule);
  if (monthly) return { kind: 'monthly', day: Number(monthly[1]) };
  return { kind: 'custom', rule };
}

/** The rule in words ("every week on Monday, Thursday"), from rrule's own wording. */
export function describeRule(rule: string): string {
  const options = parseRule(rule);
  if (!options) return rule;
  try {
    return new RRule({ ...options, dtstart: new Date(Date.UTC(2000, 0, 1)) }).toText();
  } catch {
    return rule;
  }
}

// --- Window times -----------------------------------------------------------------------------------

/** "06:30" → 390; "24:00" → 1440; null when not a time. */
export function minutesOfTime(time: string): number | null {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(time);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes > MINUTES_PER_DAY ? null : minutes;
}

export function timeOfMinutes(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export const isWholeDay = (timing: Pick<ScheduleTiming, 'windowStart' | 'windowEnd'>) =>
  timing.windowStart === 0 && timing.windowEnd === MINUTES_PER_DAY;

// --- Days and instants in a zone ------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** A YYYY-MM-DD day as the UTC midnight of that date (the floating form rrule works in). */
export const floatingDay = (date: string) =>
  Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));
export const dateOfFloating = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const addDays = (date: string, days: number) => dateOfFloating(floatingDay(date) + days * DAY_MS);

const offsetMs = (timeZone: string, at: number) => tzOffset(timeZone, new Date(at)) * MINUTE_MS;

/** The local wall-clock time of an instant, as a floating ms value (UTC fields = local fields). */
export const wallClock = (timeZone: string, at: number) => at + offsetMs(timeZone, at);

/** The calendar day (YYYY-MM-DD) of an instant in a zone. */
export const localDay = (at: number, timeZone: string) => dateOfFloating(wallClock(timeZone, at));

/**
 * The first instant whose local wall-clock time in `timeZone` is at or after `minutes` past midnight of
 * `date`: the usual instant when that time exists once; the earlier one when a clock goes back and it
 * happens twice; the moment the clock jumps when it goes forward over it (02:30 on a spring-forward night
 * opens at 03:00 local).
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): number {
  const wall = floatingDay(date) + minutes * MINUTE_MS;
  const offsets = new Set([
    offsetMs(timeZone, wall - DAY_MS),
    offsetMs(timeZone, wall),
    offsetMs(timeZone, wall + DAY_MS),
  ]);
  const exact = [...offsets].map((offset) => wall - offset).filter((at) => wallClock(timeZone, at) === wall);
  if (exact.length) return Math.min(...exact);
  // The time is skipped: find the jump, the first instant whose wall clock is past it (offsets are whole
  // minutes, so a search to the minute is exact).
  let low = wall - Math.max(...offsets); // before the jump: wall clock earlier than wanted
  let high = wall - Math.min(...offsets); // after the jump: later than wanted
  while (high - low > MINUTE_MS) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
    if (wallClock(timeZone, middle) >= wall) high = middle;
    else low = middle;
  }
  return high;
}

// --- Expansion --------------------------------------------------------------------------------------

function ruleSet(timing: ScheduleTiming) {
  const options = parseRule(timing.rule);
  if (!options) throw new Error(`Schedule rule refused: ${timing.rule}`);
  return new RRule({ ...options, dtstart: new Date(floatingDay(timing.startDate)) });
}

function withinEnd(timing: ScheduleTiming, date: string) {
  return timing.endDate === null || date <= timing.endDate;
}

/**
 * The occurrences whose window starts in [from, to), each with the start of the one after it. Bounded by
 * the range: the caller limits it (OCCURRENCE_RANGE_MAX_DAYS), so nothing unbounded is ever expanded.
 */
export function expandOccurrences(
  timing: ScheduleTiming,
  timeZone: string,
  from: number,
  to: number,
): Occurrence[] {
  if (to <= from) return [];
  const rule = ruleSet(timing);
  // Local days that may hold a window starting in the range: a day's window starts at most a day and
  // a bit after its midnight (24:00 and a zone's largest offset), and at the earliest at midnight.
  const firstDay = localDay(from - 2 * DAY_MS, timeZone);
  const lastDay = localDay(to + DAY_MS, timeZone);
  const days = rule
    .between(new Date(floatingDay(firstDay)), new Date(floatingDay(lastDay)), true)
    .map((day) => dateOfFloating(day.getTime()))
    .filter((date) => withinEnd(timing, date));
  const placed = days.map((date) => ({
    date,
    start: zonedInstant(date, timing.windowStart, timeZone),
    end: zonedInstant(date, timing.windowEnd, timeZone),
  }));
  const occurrences: Occurrence[] = [];
  placed.forEach((occurrence, index) => {
    if (occurrence.start < from || occurrence.start >= to) return;
    let nextStart: number | null;
    const following = placed[index + 1];
    if (following) nextStart = following.start;
    else {
      const after = rule.after(new Date(floatingDay(occurrence.date)), false);
      const nextDate = after ? dateOfFloating(after.getTime()) : null;
      nextStart =
        nextDate && withinEnd(timing, nextDate) ? zonedInstant(nextDate, timing.windowStart, timeZone) : null;
    }
    occurrences.push({ ...occurrence, nextStart });
  });
  return occurrences;
}

/**
 * An occurrence's status at `now`, from the completion times of evaluations of its card on its board
 * (sorted ascending; only those at or after its start matter):
 * - Done: one completed in the window [start, end);
 * - Due: none in the window, and the window has not ended (open, or still to come);
 * - Late: the window ended without one, and one came before the next occurrence started;
 * - Missed: the window ended without one, and none came before the next occurrence (or yet).
 */
export function occurrenceStatus(
  occurrence: Pick<Occurrence, 'start' | 'end' | 'nextStart'>,
  completions: readonly number[],
  now: number,
): { status: ScheduleStatus; completedAt: number | null } {
  const first = firstAtOrAfter(completions, occurrence.start);
  if (first !== null && first < occurrence.end) return { status: 'Done', completedAt: first };
  if (now < occurrence.end) return { status: 'Due', completedAt: null };
  const lateBy = occurrence.nextStart ?? Number.POSITIVE_INFINITY;
  if (first !== null && first < lateBy && first <= now) return { status: 'Late', completedAt: first };
  return { status: 'Missed', completedAt: null };
}

/** The first value ≥ at in an ascending list (binary search), or null. */
export function firstAtOrAfter(sorted: readonly number[], at: number): number | null {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < at) low = middle + 1;
    else high = middle;
  }
  return low < sorted.length ? sorted[low]! : null;
}

/** Compliance over ended occurrences: done on time / due (Done, Late and Missed); null with none due. */
export function complianceRate(counts: { done: number; late: number; missed: number }): number | null {
  const due = counts.done + counts.late + counts.missed;
  return due === 0 ? null : counts.done / due;
}
