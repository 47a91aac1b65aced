/**
 * Migration 0028 (docs/decisions/0746): the counters keep every row they had, as shard 0, and a key may then
 * hold a row per shard.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock.ts';
import { TEST_DIALECTS, createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { buildOrg } from '../../test/factories.ts';
import { migrateToLatest } from '../migrate.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`migration 0028 [${dialect}]`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    it('keeps the counters’ rows as shard 0 and lets a key have a row per shard', async () => {
      database = await createTestDatabase(dialect, { migrate: false });
      const { db } = database.database;
      await migrateToLatest(db, dialect, (name) => name < '0028');
      const org = await buildOrg({ db, clock: new FakeClock() });
      const o = org.id;
      await sql`insert into evaluation_counts (org_id, board_id, card_id, slot, passed, failed)
        values (${o}, 0, 0, 100, 3, 1), (${o}, 5, 6, 100, 2, 0)`.execute(db);
      await sql`insert into evaluation_totals (org_id, unit, board_id, card_id, slot, passed, failed)
        values (${o}, 2, 0, 0, 7, 4, 2)`.execute(db);
      await sql`insert into item_totals (org_id, board_id, item_id, unit, slot, kind, passed, failed, na, answers)
        values (${o}, 0, 9, 3, 1, 1, 5, 1, 1, 7)`.execute(db);

      await migrateToLatest(db, dialect);

      const counts = await sql<{ board_id: number; shard: number; passed: number; failed: number }>`
        select board_id, shard, passed, failed from evaluation_counts where org_id = ${o} order by board_id`.execute(
        db,
      );
      expect(counts.rows.map((r) => [Number(r.board_id), Number(r.shard), r.passed, r.failed])).toEqual([
        [0, 0, 3, 1],
        [5, 0, 2, 0],
      ]);
      const totals = await sql<{ shard: number; passed: number }>`
        select shard, passed from evaluation_totals where org_id = ${o}`.execute(db);
      expect(totals.rows.map((r) => [Number(r.shard), r.passed])).toEqual([[0, 4]]);
      const items = await sql<{ shard: number; answers: number }>`
        select shard, answers from item_totals where org_id = ${o}`.execute(db);
      expect(items.rows.map((r) => [Number(r.shard), r.answers])).toEqual([[0, 7]]);

      // Another shard of the same keys is a row of its own; the same shard again is refused.
      await sql`insert into evaluation_counts (org_id, board_id, card_id, slot, passed, failed, shard)
        values (${o}, 0, 0, 100, 1, 0, 3)`.execute(db);
      await sql`insert into evaluation_totals (org_id, unit, board_id, card_id, slot, passed, failed, shard)
        values (${o}, 2, 0, 0, 7, 1, 0, 3)`.execute(db);
      await sql`insert into item_totals (org_id, board_id, item_id, unit, slot, kind, passed, failed, na, answers, shard)
        values (${o}, 0, 9, 3, 1, 1, 1, 0, 0, 1, 3)`.execute(db);
      await expect(
        sql`insert into evaluation_counts (org_id, board_id, card_id, slot, passed, failed, shard)
          values (${o}, 0, 0, 100, 1, 0, 3)`.execute(db),
      ).rejects.toThrow(/unique|duplicate/i);
      // The card index of evaluation_counts is there again.
      const index =
        dialect === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'index'
              and name = 'evaluation_counts_card'`.execute(db)
          : await sql<{ name: string }>`select indexname as name from pg_indexes
              where indexname = 'evaluation_counts_card'`.execute(db);
      expect(index.rows).toHaveLength(1);
    });
  });
}
