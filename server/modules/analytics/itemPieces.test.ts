import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ITEM_UNITS } from '../../db/migrations/0027_item_totals.ts';
import { itemPiecesOf, type SignedPiece } from './report.ts';

const DAY = 96;

/** How many times each quarter-hour is counted, as [from, to, times] runs where it changes. */
function coverage(pieces: SignedPiece[]): [number, number, number][] {
  const steps = new Map<number, number>();
  for (const p of pieces) {
    const size = ITEM_UNITS[p.unit]!;
    expect(p.hi).toBeGreaterThan(p.lo);
    steps.set(p.lo * size, (steps.get(p.lo * size) ?? 0) + p.sign);
    steps.set(p.hi * size, (steps.get(p.hi * size) ?? 0) - p.sign);
  }
  const points = [...steps.keys()].sort((a, b) => a - b);
  const runs: [number, number, number][] = [];
  let times = 0;
  for (const [i, at] of points.entries()) {
    times += steps.get(at)!;
    const next = points[i + 1];
    if (next !== undefined && times !== 0) {
      const last = runs.at(-1);
      if (last && last[1] === at && last[2] === times) last[1] = next;
      else runs.push([at, next, times]);
    }
  }
  return runs;
}

const rows = (pieces: SignedPiece[]) => pieces.reduce((n, p) => n + p.hi - p.lo, 0);

describe('itemPiecesOf: a range of quarter-hours as signed ranges of eight days, days, hours and quarter-hours', () => {
  it('reads a London summer day as its UTC day less an hour plus an hour, a Kathmandu day and a year in few rows', () => {
    const d = 20_000;
    // 23:00 to 23:00 UTC.
    expect(itemPiecesOf(d * DAY - 4, (d + 1) * DAY - 4)).toEqual(
      expect.arrayContaining([
        { unit: 2, lo: d, hi: d + 1, sign: 1 },
        { unit: 1, lo: d * 24 - 1, hi: d * 24, sign: 1 },
        { unit: 1, lo: (d + 1) * 24 - 1, hi: (d + 1) * 24, sign: -1 },
      ]),
    );
    expect(rows(itemPiecesOf(d * DAY - 4, (d + 1) * DAY - 4))).toBe(3);
    // +05:45: 18:15 to 18:15 UTC; a day and about six hours either side.
    const kathmandu = itemPiecesOf(d * DAY - 23, (d + 1) * DAY - 23);
    expect(coverage(kathmandu)).toEqual([[d * DAY - 23, (d + 1) * DAY - 23, 1]]);
    expect(rows(kathmandu)).toBeLessThanOrEqual(15);
    // 365 local days in India (+05:30) end to end: some 46 eight-day blocks and the ends.
    const year = itemPiecesOf(d * DAY - 22, (d + 365) * DAY - 22);
    expect(coverage(year)).toEqual([[d * DAY - 22, (d + 365) * DAY - 22, 1]]);
    expect(rows(year)).toBeLessThanOrEqual(64);
  });

  it('counts every quarter-hour of the range exactly once and none outside it, in a bounded number of rows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 200_000 }), (lo, n) => {
        const pieces = itemPiecesOf(lo, lo + n);
        expect(coverage(pieces)).toEqual([[lo, lo + n, 1]]);
        // Whole blocks, then at most half a block, half a day, half an hour and a quarter-hour... at each end.
        expect(rows(pieces)).toBeLessThanOrEqual(Math.ceil(n / 768) + 2 * (4 + 12 + 2 + 2) + 1);
      }),
    );
    expect(itemPiecesOf(5, 5)).toEqual([]);
  });
});
