import { ref, type DialectName, type UntypedDb } from '../dialect.ts';

/**
 * Running exports, one lease per organisation (docs/decisions/0621): a row is claimed when an export starts,
 * renewed while it streams, deleted when it ends; a lease past `expires_at` (its process died) may be taken.
 */
export function exportLeases(_dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createTable('export_leases')
        .addColumn('org_id', 'bigint', (c) => ref('organizations', 'cascade')(c).primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
