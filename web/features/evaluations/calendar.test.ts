import { beforeAll, describe, expect, it } from 'vitest';
import type { Evaluation } from '../../../common/api/index.ts';
import {
  calendarWeeks,
  dayKey,
  evaluationsByDay,
  evaluationsStart,
  inGroups,
  lastEvaluations,
  twentyEightDays,
} from './calendar.ts';

// Days are the browser's; a zone with a daylight-saving change inside the 28 days (1 Nov 2026).
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});

const local = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h);

function evaluation(ID: number, cardID: number, completedTime: string, pass = true): Evaluation {
  return {
    ID,
    boardID: 1,
    boardName: 'Line 1',
    cardID,
    cardName: `Card ${cardID}`,
    userName: 'ann@example.com',
    pass,
    hasFeedback: false,
    completedTime,
    isUsers: true,
  };
}

describe('twentyEightDays', () => {
  it('ends on the coming Saturday and starts on a Sunday four weeks before', () => {
    const { first, last } = twentyEightDays(local(2026, 11, 20));
    expect(dayKey(first)).toBe('2026-10-25');
    expect(first.getDay()).toBe(0);
    expect(dayKey(last)).toBe('2026-11-21');
    expect(last.getDay()).toBe(6);
  });

  it('ends today on a Saturday, and a week later from a Sunday', () => {
    expect(dayKey(twentyEightDays(local(2026, 11, 21, 23)).last)).toBe('2026-11-21');
    const sunday = twentyEightDays(local(2026, 11, 22, 0));
    expect(dayKey(sunday.first)).toBe('2026-11-01');
    expect(dayKey(sunday.last)).toBe('2026-11-28');
  });
});

describe('calendarWeeks', () => {
  it('lays out 28 consecutive days in four Sunday-first weeks across a clock change', () => {
    const weeks = calendarWeeks('days28', local(2026, 11, 20));
    expect(weeks).toHaveLength(4);
    const days = weeks.flat();
    expect(days.every(Boolean)).toBe(true);
    expect(days.map((d) => d!.key)).toEqual(
      Array.from({ length: 28 }, (_, i) => dayKey(new Date(2026, 9, 25 + i))),
    );
    expect(days.filter((d) => d!.isToday).map((d) => d!.key)).toEqual(['2026-11-20']);
    expect(days.filter((d) => d!.isFuture).map((d) => d!.key)).toEqual(['2026-11-21']);
  });

  it('lays out the month with blank cells outside it', () => {
    const march = calendarWeeks('month', local(2026, 3, 10));
    expect(march).toHaveLength(5);
    expect(march[0]!.map((d) => d?.key ?? null)).toEqual([
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
    ]);
    expect(march[4]!.map((d) => d?.key ?? null)).toEqual([
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
      null,
      null,
      null,
      null,
    ]);
    expect(march.flat().filter(Boolean)).toHaveLength(31);

    const february = calendarWeeks('month', local(2026, 2, 1));
    expect(february).toHaveLength(4);
    expect(february.flat().every(Boolean)).toBe(true);

    const may = calendarWeeks('month', local(2026, 5, 31));
    expect(may[0]!.filter((d) => d === null)).toHaveLength(5);
    expect(may).toHaveLength(6);
  });
});

describe('evaluationsStart', () => {
  it('is the earlier of the month start and the 28 days start', () => {
    expect(dayKey(evaluationsStart(local(2026, 11, 20)))).toBe('2026-10-25');
    expect(dayKey(evaluationsStart(local(2026, 11, 29)))).toBe('2026-11-01');
    expect(evaluationsStart(local(2026, 11, 29)).getHours()).toBe(0);
  });
});

describe('evaluationsByDay and lastEvaluations', () => {
  const list = [
    evaluation(1, 7, '2026-11-19T15:00:00.000Z'),
    evaluation(2, 7, '2026-11-21T03:00:00.000Z', false), // 22:00 on the 20th in New York
    evaluation(3, 8, '2026-11-20T15:00:00.000Z'),
    evaluation(4, 7, '2026-11-20T15:00:00.000Z'),
    evaluation(5, 7, '2026-11-20T15:00:00.000Z'),
  ];

  it('groups one card by local day', () => {
    const days = evaluationsByDay(list, 7);
    expect([...days.keys()]).toEqual(['2026-11-19', '2026-11-20']);
    expect(days.get('2026-11-20')!.map((e) => e.ID)).toEqual([2, 4, 5]);
  });

  it('takes a card’s last three, oldest first, by time then id', () => {
    expect(lastEvaluations(list, 7).map((e) => e.ID)).toEqual([4, 5, 2]);
    expect(lastEvaluations(list, 8).map((e) => e.ID)).toEqual([3]);
    expect(lastEvaluations(list, 9)).toEqual([]);
  });
});

describe('inGroups', () => {
  it('cuts squares into groups of three', () => {
    expect(inGroups([1, 2, 3, 4, 5, 6, 7])).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(inGroups([])).toEqual([]);
  });
});
