/**
 * The board view's three views (SPEC §2, §9), in the browser's time zone: This Month, Last 3 Evaluations
 * and 28 Days (4 calendar weeks, Sunday to Saturday, ending on the coming Saturday). One get-evaluations
 * answer serves all three (docs/decisions/0203-board-view-evaluations.md).
 */
import {
  addDays,
  endOfMonth,
  endOfWeek,
  isAfter,
  isSameDay,
  isSameMonth,
  startOfDay,
  startOfMonth,
  startOfWeek,
} from 'date-fns';
import type { BoardDayTotals, Evaluation } from '../../../common/api/index.ts';
import { CALENDAR_DAYS, LAST_EVALUATIONS_COUNT, SQUARES_PER_GROUP } from '../../../common/constants.ts';
import { localDateKey, spokenDay } from '../../shared/format.ts';

export const BOARD_VIEWS = [
  { value: 'month', label: 'This Month' },
  { value: 'last3', label: 'Last 3 Evaluations' },
  { value: 'days28', label: '28 Days' },
] as const;
export type BoardView = (typeof BOARD_VIEWS)[number]['value'];

const WEEK = { weekStartsOn: 0 } as const;

/** A day's key, as cells and evaluations are matched: the local calendar date ('yyyy-MM-dd'). */
export const dayKey = localDateKey;

/** 28 Days: from a Sunday to the coming Saturday (today, when today is a Saturday), in whole local days. */
export function twentyEightDays(now: Date): { first: Date; last: Date } {
  const last = startOfDay(endOfWeek(now, WEEK));
  return { first: addDays(last, -(CALENDAR_DAYS - 1)), last };
}

/** The start of the evaluations the board asks for: enough for This Month and 28 Days (both ≤ 31 days). */
export function evaluationsStart(now: Date): Date {
  const month = startOfMonth(now);
  const { first } = twentyEightDays(now);
  return month < first ? month : first;
}

export interface CalendarDay {
  key: string;
  date: Date;
  isToday: boolean;
  isFuture: boolean;
  /** The day of the month, as the cell shows it. */
  number: string;
  /** The day as a screen reader says it, e.g. 'Monday 3 November': written once, shared by every card. */
  spoken: string;
}

/** Weeks (Sunday first) of the view's days; a cell outside the view (before the 1st, after the last) is null. */
export function calendarWeeks(view: 'month' | 'days28', now: Date): (CalendarDay | null)[][] {
  const range =
    view === 'month' ? { first: startOfMonth(now), last: startOfDay(endOfMonth(now)) } : twentyEightDays(now);
  const weeks: (CalendarDay | null)[][] = [];
  const end = startOfDay(endOfWeek(range.last, WEEK));
  const today = startOfDay(now);
  for (let day = startOfWeek(range.first, WEEK); day <= end; day = addDays(day, 1)) {
    if (day.getDay() === 0) weeks.push([]);
    const inView = view === 'month' ? isSameMonth(day, now) : day >= range.first && day <= range.last;
    weeks.at(-1)!.push(
      inView
        ? {
            key: dayKey(day),
            date: day,
            isToday: isSameDay(day, today),
            isFuture: isAfter(day, today),
            number: String(day.getDate()),
            spoken: spokenDay(day),
          }
        : null,
    );
  }
  return weeks;
}

/** A card's evaluations by local day, each day oldest first (the answer is ordered oldest first). */
export function evaluationsByDay(evaluations: Evaluation[], cardID: number): Map<string, Evaluation[]> {
  const days = new Map<string, Evaluation[]>();
  for (const evaluation of evaluations) {
    if (evaluation.cardID !== cardID) continue;
    const key = dayKey(new Date(evaluation.completedTime));
    const list = days.get(key);
    if (list) list.push(evaluation);
    else days.set(key, [evaluation]);
  }
  return days;
}

export interface DayTotals {
  pass: number;
  fail: number;
}

/**
 * A card's days that get-evaluations lists only in part (their last squares), with each day's totals
 * (decision 0620).
 */
export function moreDaysOf(moreDays: BoardDayTotals[] | undefined, cardID: number): Map<string, DayTotals> {
  const days = new Map<string, DayTotals>();
  for (const day of moreDays ?? []) if (day.cardID === cardID) days.set(day.date, day);
  return days;
}

/** A day's totals: the answer's when it lists the day in part, else counted from its squares. */
export function dayTotals(squares: Evaluation[], more: DayTotals | undefined): DayTotals {
  if (more) return more;
  const pass = squares.filter((e) => e.pass).length;
  return { pass, fail: squares.length - pass };
}

/** A card's last evaluations, oldest first. */
export function lastEvaluations(
  evaluations: Evaluation[],
  cardID: number,
  count = LAST_EVALUATIONS_COUNT,
): Evaluation[] {
  const mine = evaluations.filter((e) => e.cardID === cardID);
  mine.sort((a, b) => Date.parse(a.completedTime) - Date.parse(b.completedTime) || a.ID - b.ID);
  return mine.slice(-count);
}

/** The squares in groups (SPEC §9: 3 per group). */
export function inGroups<T>(list: T[], size = SQUARES_PER_GROUP): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < list.length; i += size) groups.push(list.slice(i, i + size));
  return groups;
}
