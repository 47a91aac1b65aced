/**
 * integerRows (decision 0759): rows of integers read as a table from parameters, the same on both databases,
 * in a statement whose text does not depend on the rows.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/databases.ts';
import { integerRows } from './dialect.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`integerRows [${dialect}]`, () => {
    let test: TestDatabase;
    let db: Kysely<unknown>;
    beforeAll(async () => {
      test = await createTestDatabase(dialect, { migrate: false });
      db = test.database.db as unknown as Kysely<unknown>;
    });
    afterAll(async () => {
      await test?.drop();
    });

    const read = (rows: number[][]) =>
      sql<{ k: number | string; lo: number | string; hi: number | string }>`
        with r(k, lo, hi) as (${integerRows(db, rows, 3)}) select k, lo, hi from r order by k`.execute(db);

    it('reads the rows back, with negatives and millisecond times, in a text that does not depend on them', async () => {
      const rows = [
        [2, 1_795_000_000_000, 1_795_086_400_000],
        [0, -1, 0],
        [1, 20_419, 20_420],
      ];
      const { rows: got } = await read(rows);
      expect(got.map((r) => [Number(r.k), Number(r.lo), Number(r.hi)])).toEqual([
        [0, -1, 0],
        [1, 20_419, 20_420],
        [2, 1_795_000_000_000, 1_795_086_400_000],
      ]);
      const text = (count: number) =>
        sql`with r(k, lo, hi) as (${integerRows(
          db,
          Array.from({ length: count }, (_, i) => [i, i, i + 1]),
          3,
        )}) select k from r`.compile(db).sql;
      expect(text(1)).toBe(text(800));
      expect(text(800).length).toBeLessThan(200);
    });

    it('joins and sums like a table', async () => {
      const { rows } = await sql<{ n: number | string }>`
        with r(k, lo, hi) as (${integerRows(
          db,
          [
            [1, 10, 20],
            [2, 5, 6],
            [3, 0, 0],
          ],
          3,
        )})
        select sum((hi - lo) * k) as n from r`.execute(db);
      expect(Number(rows[0]!.n)).toBe(12);
    });

    it('is an empty table for no rows', async () => {
      expect((await read([])).rows).toEqual([]);
    });
  });
}
