import { describe, expect, it } from 'vitest';
import {
  complianceRate,
  describeRule,
  expandOccurrences,
  minutesOfTime,
  normaliseRule,
  occurrenceStatus,
  presetOfRule,
  ruleOfPreset,
  zonedInstant,
} from './schedules.ts';

const H = 3_600_000;

describe('occurrence status at the window edges', () => {
  const start = Date.parse('2026-03-10T06:00:00Z');
  const end = Date.parse('2026-03-10T10:00:00Z');
  const nextStart = Date.parse('2026-03-11T06:00:00Z');
  const occurrence = { start, end, nextStart };

  it('is Due before and during the window while nothing is completed', () => {
    expect(occurrenceStatus(occurrence, [], start - H).status).toBe('Due');
    expect(occurrenceStatus(occurrence, [], start).status).toBe('Due');
    expect(occurrenceStatus(occurrence, [], end - 1).status).toBe('Due');
  });

  it('is Missed from the instant the window ends, with no completion', () => {
    expect(occurrenceStatus(occurrence, [], end)).toEqual({ status: 'Missed', completedAt: null });
    expect(occurrenceStatus(occurrence, [], nextStart + H).status).toBe('Missed');
  });

  it('is Done with a completion at the start instant and one just before the end', () => {
    expect(occurrenceStatus(occurrence, [start], start)).toEqual({ status: 'Done', completedAt: start });
    expect(occurrenceStatus(occurrence, [end - 1], end + H)).toEqual({
      status: 'Done',
      completedAt: end - 1,
    });
  });

  it('does not count a completion before the window opens', () => {
    expect(occurrenceStatus(occurrence, [start - 1], start).status).toBe('Due');
    expect(occurrenceStatus(occurrence, [start - 1], end).status).toBe('Missed');
  });

  it('is Late for a completion at the end instant, up to just before the next start', () => {
    expect(occurrenceStatus(occurrence, [end], end)).toEqual({ status: 'Late', completedAt: end });
    expect(occurrenceStatus(occurrence, [nextStart - 1], nextStart)).toEqual({
      status: 'Late',
      completedAt: nextStart - 1,
    });
  });

  it('is Missed when the first completion after the window is at or after the next start', () => {
    expect(occurrenceStatus(occurrence, [nextStart], nextStart + H).status).toBe('Missed');
  });

  it('a completion after now is not counted yet (a range asked about the past)', () => {
    expect(occurrenceStatus(occurrence, [end + H], end + 1).status).toBe('Missed');
  });

  it('without a next occurrence, any completion after the window is Late', () => {
    expect(occurrenceStatus({ start, end, nextStart: null }, [end + 400 * H], end + 500 * H).status).toBe(
      'Late',
    );
  });

  it('compliance is done on time over Done, Late and Missed', () => {
    expect(complianceRate({ done: 3, late: 1, missed: 0 })).toBe(0.75);
    expect(complianceRate({ done: 0, late: 0, missed: 0 })).toBeNull();
  });
});

describe('rules', () => {
  it('accepts day-level rules and writes them canonically', () => {
    expect(normaliseRule('rrule:freq=weekly;byday=mo,fr')).toBe('FREQ=WEEKLY;BYDAY=MO,FR');
    expect(normaliseRule('FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1')).toBe('FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1');
  });

  it('refuses sub-daily frequencies, times of day, a start or zone of its own, and nonsense', () => {
    for (const rule of [
      'FREQ=HOURLY',
      'FREQ=DAILY;BYHOUR=6',
      'FREQ=DAILY;DTSTART=20260101T000000Z',
      'FREQ=FOO',
      'FREQ=DAILY;FOO=1',
      'FREQ=DAILY;INTERVAL=0',
      '',
      'FREQ=DAILY\nBYDAY=MO',
      'X'.repeat(400),
    ])
      expect(normaliseRule(rule), rule).toBeNull();
  });

  it('presets round-trip through their rule', () => {
    for (const preset of [
      { kind: 'daily' as const },
      { kind: 'weekdays' as const, days: ['MO' as const, 'WE' as const] },
      { kind: 'weeks' as const, every: 2, days: ['TH' as const] },
      { kind: 'monthly' as const, day: 31 },
    ])
      expect(presetOfRule(ruleOfPreset(preset))).toEqual(preset);
    expect(presetOfRule('FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=2')).toEqual({
      kind: 'custom',
      rule: 'FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=2',
    });
  });

  it('describes a rule in words', () => {
    expect(describeRule('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO')).toBe('every 2 weeks on Monday');
  });

  it('reads window times, 24:00 included', () => {
    expect(minutesOfTime('06:30')).toBe(390);
    expect(minutesOfTime('24:00')).toBe(1440);
    expect(minutesOfTime('24:01')).toBeNull();
    expect(minutesOfTime('6:30')).toBeNull();
  });
});

describe('custom rules and clock changes', () => {
  it('the first Monday of each month, 06:00-10:00 in New York', () => {
    const timing = {
      rule: 'FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1',
      startDate: '2026-01-01',
      endDate: null,
      windowStart: 360,
      windowEnd: 600,
    };
    const list = expandOccurrences(
      timing,
      'America/New_York',
      Date.parse('2026-02-01T00:00Z'),
      Date.parse('2026-05-01T00:00Z'),
    );
    expect(list.map((o) => o.date)).toEqual(['2026-02-02', '2026-03-02', '2026-04-06']);
    // EST in March's first week, EDT in April.
    expect(new Date(list[1]!.start).toISOString()).toBe('2026-03-02T11:00:00.000Z');
    expect(new Date(list[2]!.start).toISOString()).toBe('2026-04-06T10:00:00.000Z');
    expect(list[2]!.nextStart).toBe(Date.parse('2026-05-04T10:00:00Z'));
  });

  it('a window over a skipped hour opens when the clock jumps; a repeated hour counts from its first time', () => {
    // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT (07:00Z).
    expect(new Date(zonedInstant('2026-03-08', 150, 'America/New_York')).toISOString()).toBe(
      '2026-03-08T07:00:00.000Z',
    );
    // 2026-11-01: 02:00 EDT becomes 01:00 EST (06:00Z); 01:30 happens at 05:30Z and 06:30Z.
    expect(new Date(zonedInstant('2026-11-01', 90, 'America/New_York')).toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    // Lord Howe moves by half an hour.
    expect(new Date(zonedInstant('2026-10-04', 135, 'Australia/Lord_Howe')).toISOString()).toBe(
      '2026-10-03T15:30:00.000Z',
    );
  });

  it('a whole day lasts 23 or 25 hours on the days the clock changes', () => {
    const day = (date: string) =>
      expandOccurrences(
        { rule: 'FREQ=DAILY', startDate: '2026-01-01', endDate: null, windowStart: 0, windowEnd: 1440 },
        'Europe/London',
        Date.parse(`${date}T00:00:00Z`) - 2 * H,
        Date.parse(`${date}T00:00:00Z`) + 2 * H,
      ).find((o) => o.date === date)!;
    const spring = day('2026-03-29');
    const autumn = day('2026-10-25');
    expect(spring.end - spring.start).toBe(23 * H);
    expect(autumn.end - autumn.start).toBe(25 * H);
  });
});
