import type { DialectName, UntypedDb } from '../dialect.ts';
import { ref, withId } from '../dialect.ts';

/**
 * Reports and sign-off (issue 13, docs/decisions/0710-0713):
 * - cards.sign_off_required: completing an evaluation of the card needs a drawn signature and a typed name;
 * - evaluations.signed_name: the name typed under the signature;
 * - evaluation_signatures: the signature image of an evaluation (one; re-signing an open one replaces it),
 *   a PNG in the storage like the photos;
 * - report_links: share links to one evaluation's PDF report, kept as the token's SHA-256 only.
 */
export function reports(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .alterTable('cards')
        .addColumn('sign_off_required', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('evaluations').addColumn('signed_name', 'text').execute();
      await withId(db.schema.createTable('evaluation_signatures'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('evaluation_id', 'bigint', (c) => ref('evaluations', 'cascade')(c).notNull())
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('evaluation_signatures_evaluation')
        .on('evaluation_signatures')
        .columns(['org_id', 'evaluation_id'])
        .unique()
        .execute();
      await withId(db.schema.createTable('report_links'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('evaluation_id', 'bigint', (c) => ref('evaluations', 'cascade')(c).notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('token_prefix', 'text', (c) => c.notNull())
        .addColumn('created_by_id', 'bigint', (c) => ref('users', 'set null')(c))
        .addColumn('created_by_name', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('report_links_evaluation')
        .on('report_links')
        .columns(['org_id', 'evaluation_id', 'id'])
        .execute();
    },
  };
}
