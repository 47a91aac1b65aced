/**
 * Local calendars of IANA time zones, for the report's buckets (docs/decisions/0421): local days, weeks from
 * Monday, months, quarters and years, each starting at the first instant of its first local day, which is
 * found from the zone's rules through Intl (right across daylight-saving changes, including days that start
 * at 01:00 and midnights that happen twice). Every offset in use is a multiple of 15 minutes, so every
 * bucket edge is a UTC quarter-hour, which is what the counts are kept by.
 */
import type { Duration } from '../../../common/api/entities.ts';

import { SLOT_MS } from '../../db/migrations/0005_analytics.ts';

export { SLOT_MS };
const HOUR = 60 * 60_000;

/** A calendar date; month 1-12. */
export interface LocalDate {
  y: number;
  m: number;
  d: number;
}

/** A zone's wall clock, read through Intl. */
export interface Zone {
  name: string;
  format: Intl.DateTimeFormat;
}

// IANA names only (letters, digits, _ + - /), not offsets like +05:30 that newer engines also accept.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;
const zones = new Map<string, Zone>();

/** The zone, or null if it is not a time zone this server knows. */
export function zoneOf(name: string): Zone | null {
  const known = zones.get(name);
  if (known) return known;
  if (!ZONE_NAME.test(name)) return null;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return null;
  }
  if (zones.size > 1000) zones.clear();
  const zone = { name, format };
  zones.set(name, zone);
  return zone;
}

const WALL = /^(\d+)\/(\d+)\/(\d+), (\d+):(\d+):(\d+)$/;

/** The wall-clock time at instant t, as milliseconds of a UTC clock showing the same (to the second). */
function wallClock(zone: Zone, t: number): number {
  const match = WALL.exec(zone.format.format(t));
  if (!match) throw new Error(`unexpected date format for ${zone.name}`);
  const [, month, day, year, hour, minute, second] = match.map(Number) as number[];
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
}

function utcDate(ms: number): LocalDate {
  const date = new Date(ms);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
}

const dateKey = (date: LocalDate) => date.y * 10_000 + date.m * 100 + date.d;
const dayMs = (date: LocalDate) => Date.UTC(date.y, date.m - 1, date.d);

export function localDate(zone: Zone, t: number): LocalDate {
  return utcDate(wallClock(zone, t));
}

const dayStarts = new Map<string, number>();

/** The first instant of a local date in the zone (a day that starts at 01:00 starts then). */
export function startOfLocalDate(zone: Zone, date: LocalDate): number {
  const cacheKey = `${zone.name} ${dateKey(date)}`;
  const cached = dayStarts.get(cacheKey);
  if (cached !== undefined) return cached;
  const wall = dayMs(date);
  const key = dateKey(date);
  const keyAt = (t: number) => dateKey(localDate(zone, t));
  // The offset at a first guess, then at the instant it gives: right unless a change is near.
  let t = wall - (wallClock(zone, wall) - wall);
  t = wall - (wallClock(zone, t) - t);
  let start: number;
  if (wallClock(zone, t) === wall && keyAt(t - SLOT_MS) < key) {
    start = t;
  } else {
    // Midnight skipped, or passed twice: the first quarter-hour already on that date. Offsets stay within
    // -12 and +14 hours, so the start lies in this window.
    let before = Math.floor((wall - 15 * HOUR) / SLOT_MS);
    let after = Math.ceil((wall + 15 * HOUR) / SLOT_MS);
    while (after - before > 1) {
      const middle = Math.floor((before + after) / 2);
      if (keyAt(middle * SLOT_MS) >= key) after = middle;
      else before = middle;
    }
    start = after * SLOT_MS;
  }
  if (dayStarts.size > 100_000) dayStarts.clear();
  dayStarts.set(cacheKey, start);
  return start;
}

const plusDays = (date: LocalDate, n: number) => utcDate(Date.UTC(date.y, date.m - 1, date.d + n));
const plusMonths = (date: LocalDate, n: number) => utcDate(Date.UTC(date.y, date.m - 1 + n, 1));

/** The first date of the unit (day, week from Monday, month, quarter, year) that holds the date. */
export function unitStart(date: LocalDate, unit: Duration): LocalDate {
  switch (unit) {
    case 'Days':
      return date;
    case 'Weeks':
      return plusDays(date, -((new Date(dayMs(date)).getUTCDay() + 6) % 7));
    case 'Months':
      return { y: date.y, m: date.m, d: 1 };
    case 'Quarters':
      return { y: date.y, m: date.m - ((date.m - 1) % 3), d: 1 };
    case 'Years':
      return { y: date.y, m: 1, d: 1 };
  }
}

/** n units after a unit's first date (n may be negative). */
export function addUnits(start: LocalDate, unit: Duration, n: number): LocalDate {
  switch (unit) {
    case 'Days':
      return plusDays(start, n);
    case 'Weeks':
      return plusDays(start, 7 * n);
    case 'Months':
      return plusMonths(start, n);
    case 'Quarters':
      return plusMonths(start, 3 * n);
    case 'Years':
      return plusMonths(start, 12 * n);
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO 8601 week of a date: the week-numbering year (the year of its Thursday) and the week number. */
function isoWeek(date: LocalDate): { year: number; week: number } {
  const thursday = plusDays(unitStart(date, 'Weeks'), 3);
  const dayOfYear = (dayMs(thursday) - Date.UTC(thursday.y, 0, 1)) / (24 * HOUR);
  return { year: thursday.y, week: Math.floor(dayOfYear / 7) + 1 };
}

/** A unit's label: 2026-11-23, 2026-W48, 2026-11, 2026-Q4, 2026. */
export function unitLabel(start: LocalDate, unit: Duration): string {
  switch (unit) {
    case 'Days':
      return `${pad(start.y, 4)}-${pad(start.m)}-${pad(start.d)}`;
    case 'Weeks': {
      const { year, week } = isoWeek(start);
      return `${pad(year, 4)}-W${pad(week)}`;
    }
    case 'Months':
      return `${pad(start.y, 4)}-${pad(start.m)}`;
    case 'Quarters':
      return `${pad(start.y, 4)}-Q${(start.m - 1) / 3 + 1}`;
    case 'Years':
      return pad(start.y, 4);
  }
}

/**
 * A point of a graph's period: -1 is now; n is the start of the unit n units before the current one
 * (`end`: the end of that unit, so "from 7 days ago to 1 day ago" is seven whole days).
 */
export function periodPoint(zone: Zone, now: number, n: number, unit: Duration, end: boolean): number {
  if (n === -1) return now;
  const current = unitStart(localDate(zone, now), unit);
  return startOfLocalDate(zone, addUnits(current, unit, -n + (end ? 1 : 0)));
}

export interface Bucket {
  label: string;
  /** The unit's first instant (before `from` for a first bucket cut by the period). */
  start: number;
  /** The instants counted in it: [lo, hi), whole quarter-hours. */
  lo: number;
  hi: number;
}

/** The period's edges as counted: widened to whole quarter-hours (only "now" is not on one). */
export function countedRange(from: number, to: number): { lo: number; hi: number } {
  return { lo: Math.floor(from / SLOT_MS) * SLOT_MS, hi: Math.ceil(to / SLOT_MS) * SLOT_MS };
}

/**
 * The units of a division that overlap [from, to), in order, each counting its part of the period; null if
 * there would be more than `max`.
 */
export function bucketsOf(
  zone: Zone,
  unit: Duration,
  from: number,
  to: number,
  max: number,
): Bucket[] | null {
  const { lo, hi } = countedRange(from, to);
  const buckets: Bucket[] = [];
  let date = unitStart(localDate(zone, lo), unit);
  let start = startOfLocalDate(zone, date);
  while (start < hi) {
    if (buckets.length === max) return null;
    const next = addUnits(date, unit, 1);
    const end = startOfLocalDate(zone, next);
    // Edges are quarter-hours in every zone in use; one that is not (a historical offset) counts from the
    // quarter-hour it falls in.
    const slot = (t: number) => Math.floor(t / SLOT_MS) * SLOT_MS;
    buckets.push({
      label: unitLabel(date, unit),
      start,
      lo: Math.max(slot(start), lo),
      hi: Math.min(slot(end), hi),
    });
    date = next;
    start = end;
  }
  return buckets;
}
