import { sql } from 'kysely';
import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * item_totals_pending (docs/decisions/0751): the completed evaluations whose results are not yet in
 * item_totals. A completion writes one row here instead of item_totals' 64; the fold (foldItemTotals in
 * server/modules/shared/itemCounts.ts) moves a batch of them into item_totals in one transaction, and
 * readers add what is still here to what is there, so the figures are exact at every moment. Nothing is
 * pending when the table is made: item_totals already counts every completed evaluation.
 */
export function itemTotalsPending(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createTable('item_totals_pending')
        // No foreign key, as item_totals: the deletion of an evaluation removes its row in the same transaction.
        .addColumn('evaluation_id', 'bigint', (c) => c.notNull().primaryKey())
        .addColumn('org_id', 'bigint', (c) => c.notNull())
        .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
        .execute();
    },
  };
}
