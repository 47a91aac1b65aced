import { sql } from 'kysely';
import { ref, type DialectName, type UntypedDb } from '../dialect.ts';

/** A quarter of an hour: every IANA offset in use is a multiple of it (docs/decisions/0421). */
export const SLOT_MS = 15 * 60_000;

/**
 * Fills evaluation_counts from the completed evaluations, at the three levels the table keeps (board and
 * card; board with card 0; board 0 and card 0). Plain SQL, so the benchmark's bulk seed runs it too.
 */
export const BACKFILL_EVALUATION_COUNTS = [
  ['board_id', 'card_id'],
  ['board_id', '0'],
  ['0', '0'],
].map(
  ([board, card]) => `
  insert into evaluation_counts (org_id, board_id, card_id, slot, passed, failed)
  select org_id, ${board}, ${card}, completed_at / ${SLOT_MS},
    sum(case when pass = 1 then 1 else 0 end), sum(case when pass = 1 then 0 else 1 end)
  from evaluations
  where completed_at is not null
  group by org_id, ${board === '0' ? '' : 'board_id, '}${card === '0' ? '' : 'card_id, '}completed_at / ${SLOT_MS}`,
);

/**
 * Analytics (issue 9, docs/decisions/0420-0422):
 * - evaluation_counts: passed and failed evaluations per organisation, board, card and UTC quarter-hour,
 *   kept in the transaction that completes or deletes an evaluation; board_id 0 / card_id 0 rows hold the
 *   totals over all boards / all cards, so an organisation-wide graph reads one row per quarter-hour;
 * - evaluations by card and completion time, for one item's figures straight from the results;
 * - at most one default dashboard per organisation.
 */
export function analytics(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createTable('evaluation_counts')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('board_id', 'bigint', (c) => c.notNull())
        .addColumn('card_id', 'bigint', (c) => c.notNull())
        .addColumn('slot', 'bigint', (c) => c.notNull())
        .addColumn('passed', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('evaluation_counts_pk', ['org_id', 'board_id', 'card_id', 'slot'])
        // SQLite: the rows live in the primary key's b-tree, so a range of it is all a report reads.
        .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
        .execute();
      // One card across all its boards.
      await db.schema
        .createIndex('evaluation_counts_card')
        .on('evaluation_counts')
        .columns(['org_id', 'card_id', 'slot', 'board_id'])
        .execute();
      for (const statement of BACKFILL_EVALUATION_COUNTS) await sql.raw(statement).execute(db);

      await db.schema
        .createIndex('evaluations_card_completed')
        .on('evaluations')
        .columns(['org_id', 'card_id', 'completed_at'])
        .execute();

      await db.schema
        .createIndex('dashboards_one_default')
        .on('dashboards')
        .column('org_id')
        .unique()
        .where(sql.ref('is_default'), '=', 1)
        .execute();
    },
  };
}
