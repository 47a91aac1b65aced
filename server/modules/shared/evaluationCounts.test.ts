/**
 * The counters' shards (decision 0746): on PostgreSQL a completion adds to its evaluation's shard only, so
 * completions in one organisation at one time do not wait for each other's commits on the organisation's
 * rows; SQLite keeps one shard. Exactness through completions and deletions is tested with the reports
 * (report.test.ts, itemTotals.test.ts).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock.ts';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/databases.ts';
import { buildOrg } from '../../test/factories.ts';
import { COUNTER_SHARDS, counterShard, countEvaluation, type CountedEvaluation } from './evaluationCounts.ts';
import { countItemResults } from './itemCounts.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`the counters' shards [${dialect}]`, () => {
    let testDatabase: TestDatabase;
    let orgId: number;
    const completedAt = Date.parse('2026-11-26T10:07:00Z');
    const counted = (id: number): CountedEvaluation => ({
      id,
      orgId,
      boardId: 11,
      cardId: 22,
      completedAt,
      pass: true,
    });

    beforeAll(async () => {
      testDatabase = await createTestDatabase(dialect);
      const org = await buildOrg({ db: testDatabase.database.db, clock: new FakeClock() });
      orgId = org.id;
    });
    afterAll(() => testDatabase.drop());

    it(`are chosen by the evaluation's id on PostgreSQL (${COUNTER_SHARDS}), and one on SQLite`, () => {
      const { db } = testDatabase.database;
      const shards = [0, 1, 7, 8, 13].map((id) => counterShard(db, id));
      expect(shards).toEqual(dialect === 'postgres' ? [0, 1, 7, 0, 5] : [0, 0, 0, 0, 0]);
    });

    it('keep the organisation’s figures whole: a key’s shards add up, and a deletion empties its own', async () => {
      const { db } = testDatabase.database;
      for (const id of [1, 2, 3, 10]) await countEvaluation(db, counted(id), 1);
      await countEvaluation(db, counted(2), -1);
      const rows = await db
        .selectFrom('evaluation_counts')
        .select(['shard', 'passed'])
        .where('org_id', '=', orgId)
        .where('board_id', '=', 0)
        .where('card_id', '=', 0)
        .orderBy('shard')
        .execute();
      expect(rows.reduce((sum, row) => sum + row.passed, 0)).toBe(3);
      // PostgreSQL: 1, 2 and 3 in shards of their own, 10 in 2's (10 mod 8), whose deletion took 2's back.
      expect(rows.map((row) => [row.shard, row.passed])).toEqual(
        dialect === 'postgres'
          ? [
              [1, 1],
              [2, 1],
              [3, 1],
            ]
          : [[0, 3]],
      );
    });

    if (dialect === 'postgres') {
      it('let completions of other shards through while one holds its rows, and make the same shard wait', async () => {
        const { db } = testDatabase.database;
        const holding = await db.startTransaction().execute();
        try {
          await countEvaluation(holding, counted(4), 1);
          await countItemResults(
            holding,
            { id: 4, orgId, boardId: 11, completedAt },
            [{ item_id: 33, item_type: 'pass_fail', pass: 1, na: 0 }],
            1,
          );
          // Another shard (5): its rows are its own, so it commits at once.
          await db.transaction().execute(async (trx) => {
            await sql`set local lock_timeout = '2s'`.execute(trx);
            await countEvaluation(trx, counted(5), 1);
            await countItemResults(
              trx,
              { id: 5, orgId, boardId: 11, completedAt },
              [{ item_id: 33, item_type: 'pass_fail', pass: 1, na: 0 }],
              1,
            );
          });
          // The same shard (4 + 8): it waits on the holder's row locks, here past a short lock timeout.
          await expect(
            db.transaction().execute(async (trx) => {
              await sql`set local lock_timeout = '200ms'`.execute(trx);
              await countEvaluation(trx, counted(4 + COUNTER_SHARDS), 1);
            }),
          ).rejects.toThrow(/lock timeout/);
        } finally {
          await holding.commit().execute();
        }
      });
    }
  });
}
