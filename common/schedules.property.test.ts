/**
 * Schedule occurrences against a brute-force expansion written independently here: every local day is
 * tested against the preset's plain meaning (weekday, weeks since the start, day of the month), and each
 * window edge is found by walking UTC minutes and reading the wall clock with Intl (none of the code under
 * test: no rrule, no @date-fns/tz). Ranges crowd around daylight-saving changes in four zones, one of them
 * with a half-hour change. PROPERTY_RUNS and PROPERTY_SEED as in the report property test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandOccurrences, ruleOfPreset, WEEKDAYS, type RulePreset, type Weekday } from './schedules.ts';

const ZONES = ['Europe/London', 'America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe'] as const;
type Zone = (typeof ZONES)[number];

// Daylight-saving changes of those zones in 2026 (UTC instants).
const CHANGES: Record<Zone, number[]> = {
  'Europe/London': ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z'].map(Date.parse),
  'America/New_York': ['2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z'].map(Date.parse),
  'Australia/Sydney': ['2026-04-04T16:00:00Z', '2026-10-03T16:00:00Z'].map(Date.parse),
  'Australia/Lord_Howe': ['2026-04-04T15:00:00Z', '2026-10-03T15:30:00Z'].map(Date.parse),
};

const MINUTE = 60_000;
const DAY = 86_400_000;
const runs = Number(process.env.PROPERTY_RUNS ?? 30);
const seed = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined;

// The wall clock of each UTC minute, read with Intl ("2026-03-08T02:30"); a minute's reading never
// changes, so it is kept across cases.
const formatters = new Map<string, Intl.DateTimeFormat>();
const walls = new Map<string, string>();
function wallOf(zone: string, minute: number): string {
  const key = `${zone}|${minute}`;
  let wall = walls.get(key);
  if (wall === undefined) {
    let formatter = formatters.get(zone);
    if (!formatter) {
      formatter = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      });
      formatters.set(zone, formatter);
    }
    const parts = Object.fromEntries(
      formatter.formatToParts(new Date(minute * MINUTE)).map((p) => [p.type, p.value]),
    );
    wall = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
    walls.set(key, wall);
  }
  return wall;
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY;
const dateOfNumber = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);
const weekdayOf = (date: string): Weekday => WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;
const mondayNumber = (date: string) => dayNumber(date) - WEEKDAYS.indexOf(weekdayOf(date));

/** The preset's plain meaning, day by day. */
function brutelyMatches(preset: RulePreset, startDate: string, date: string): boolean {
  if (date < startDate) return false;
  switch (preset.kind) {
    case 'daily':
      return true;
    case 'weekdays':
      return preset.days.includes(weekdayOf(date));
    case 'weeks': {
      const weeks = (mondayNumber(date) - mondayNumber(startDate)) / 7;
      return preset.days.includes(weekdayOf(date)) && weeks % preset.every === 0;
    }
    case 'monthly':
      return Number(date.slice(8, 10)) === preset.day;
    case 'custom':
      throw new Error('not brute-forced');
  }
}

/** The first UTC minute at or after `near - 16 h` whose wall clock reads at least `wall`. */
function bruteInstant(zone: string, wall: string, near: number): number {
  let minute = Math.floor((near - 16 * 3_600_000) / MINUTE);
  while (wallOf(zone, minute) < wall) minute += 1;
  return minute * MINUTE;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function bruteEdge(zone: string, date: string, minutes: number): number {
  // 24:00 is the next day's midnight.
  const day = minutes === 1440 ? dateOfNumber(dayNumber(date) + 1) : date;
  const time = minutes === 1440 ? '00:00' : hhmm(minutes);
  return bruteInstant(zone, `${day}T${time}`, dayNumber(day) * DAY + (minutes % 1440) * MINUTE);
}

const weekdaysArb = fc.subarray([...WEEKDAYS], { minLength: 1 });
const presetArb: fc.Arbitrary<RulePreset> = fc.oneof(
  fc.constant({ kind: 'daily' as const }),
  weekdaysArb.map((days) => ({ kind: 'weekdays' as const, days })),
  fc
    .record({ every: fc.integer({ min: 2, max: 4 }), days: weekdaysArb })
    .map((p) => ({ kind: 'weeks' as const, ...p })),
  fc.integer({ min: 1, max: 31 }).map((day) => ({ kind: 'monthly' as const, day })),
);
// Window edges crowd around the small hours, where the clocks change.
const edgeArb = fc.oneof(
  fc.constantFrom(0, 60, 90, 120, 150, 165, 180, 210, 1439, 1440),
  fc.integer({ min: 0, max: 1440 }),
);
const windowArb = fc
  .tuple(edgeArb, edgeArb)
  .filter(([a, b]) => a !== b && Math.min(a, b) < 1440)
  .map(([a, b]) => ({ windowStart: Math.min(a, b), windowEnd: Math.max(a, b) }));

describe.each(ZONES)('occurrences in %s equal a brute-force expansion', (zone) => {
  it('for every preset, window and range across the clock changes', () => {
    fc.assert(
      fc.property(
        presetArb,
        windowArb,
        fc.constantFrom(...CHANGES[zone]),
        fc.integer({ min: -12 * 24 * 60, max: 2 * 24 * 60 }),
        fc.integer({ min: 60, max: 16 * 24 * 60 }),
        fc.integer({ min: 0, max: 70 }),
        fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
        (preset, window, change, fromOffsetMinutes, lengthMinutes, startDaysBefore, endDaysAfterChange) => {
          const from = change + fromOffsetMinutes * MINUTE;
          const to = from + lengthMinutes * MINUTE;
          const changeDay = wallOf(zone, Math.floor(change / MINUTE)).slice(0, 10);
          const startDate = dateOfNumber(dayNumber(changeDay) - startDaysBefore);
          const endDate =
            endDaysAfterChange === null ? null : dateOfNumber(dayNumber(changeDay) + endDaysAfterChange);
          const timing = { rule: ruleOfPreset(preset), startDate, endDate, ...window };

          const actual = expandOccurrences(timing, zone, from, to);

          // Brute force: every local day from two before the range to the day after it, then the next
          // matching day after the last (for nextStart), at most 70 days on.
          const firstDay = dayNumber(wallOf(zone, Math.floor(from / MINUTE)).slice(0, 10)) - 2;
          const lastDay = dayNumber(wallOf(zone, Math.floor(to / MINUTE)).slice(0, 10)) + 1;
          const matching: string[] = [];
          for (let n = firstDay; n <= lastDay + 70; n += 1) {
            const date = dateOfNumber(n);
            if (endDate !== null && date > endDate) break;
            if (!brutelyMatches(preset, startDate, date)) continue;
            matching.push(date);
            if (n > lastDay) break;
          }
          const expected = [];
          for (let i = 0; i < matching.length; i += 1) {
            const date = matching[i]!;
            const start = bruteEdge(zone, date, window.windowStart);
            if (start < from || start >= to) continue;
            const next = matching[i + 1];
            expected.push({
              date,
              start,
              end: bruteEdge(zone, date, window.windowEnd),
              nextStart: next === undefined ? null : bruteEdge(zone, next, window.windowStart),
            });
          }
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
    );
  });
});
