import type { DialectName, UntypedDb } from '../dialect.ts';
import { ref, withId } from '../dialect.ts';

/**
 * API tokens (docs/decisions/0584): a named secret an administrator makes for another system, stored as a
 * hash, acting for its maker with at most read-only or read-write rights, limited per token in fixed
 * one-minute windows counted in the row itself (one atomic update per request, shared by every process).
 */
export function apiTokens(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await withId(db.schema.createTable('api_tokens'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('user_id', 'bigint', (c) => ref('users', 'cascade')(c).notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('access', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .addColumn('window_start', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('window_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('api_tokens_org').on('api_tokens').columns(['org_id', 'id']).execute();
    },
  };
}
