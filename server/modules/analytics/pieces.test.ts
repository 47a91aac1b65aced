import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { piecesOf, type Piece } from './report.ts';

const QUARTERS = { 0: 1, 1: 4, 2: 96 } as const;
/** A piece as the quarter-hours it covers. */
const span = (p: Piece) => [p.lo * QUARTERS[p.unit], p.hi * QUARTERS[p.unit]] as const;

describe('piecesOf: a range of quarter-hours as whole days, hours and quarter-hours', () => {
  it('reads a London summer day (23:00 to 23:00 UTC) as its hours, a Kathmandu day with quarter-hours at each end, a month as its days', () => {
    const day = 96;
    const londonDay = { lo: 20_000 * day - 4, hi: 20_001 * day - 4 };
    expect(piecesOf(londonDay.lo, londonDay.hi)).toEqual([
      { unit: 1, lo: (20_000 * day - 4) / 4, hi: (20_001 * day - 4) / 4 },
    ]);
    // +05:45: local midnight is 18:15 UTC: three quarter-hours up to 19:00, then whole hours, then 18:00-18:15.
    const lo = 20_000 * day - 23;
    expect(piecesOf(lo, lo + day)).toEqual([
      { unit: 0, lo, hi: lo + 3 },
      { unit: 1, lo: (lo + 3) / 4, hi: (lo + day - 1) / 4 },
      { unit: 0, lo: lo + day - 1, hi: lo + day },
    ]);
    // A month of whole UTC days is its days.
    expect(piecesOf(30 * day, 60 * day)).toEqual([{ unit: 2, lo: 30, hi: 60 }]);
  });

  it('covers every quarter-hour of the range exactly once, in order, with at most 7 pieces', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 200_000 }), (lo, n) => {
        const pieces = piecesOf(lo, lo + n);
        expect(pieces.length).toBeLessThanOrEqual(7);
        let at = lo;
        for (const piece of pieces) {
          const [from, to] = span(piece);
          expect(from).toBe(at);
          expect(to).toBeGreaterThan(from);
          at = to;
        }
        expect(at).toBe(lo + n);
      }),
    );
  });
});
