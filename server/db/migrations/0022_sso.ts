import type { DialectName, UntypedDb } from '../dialect.ts';
import { ref, withId } from '../dialect.ts';

/**
 * Single sign-on (docs/decisions/0720): one OpenID Connect configuration per organisation, and the
 * short-lived state of each sign-in in flight (state, nonce, PKCE verifier), kept in the database because
 * the callback may reach another process than the one that started the sign-in; each is used once.
 */
export function sso(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await withId(db.schema.createTable('sso_settings'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull().unique())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_secret', 'text')
        .addColumn('default_role', 'text', (c) => c.notNull())
        /** Lower-case domains, comma-separated; empty for any domain. */
        .addColumn('allowed_domains', 'text', (c) => c.notNull())
        .addColumn('require_sso', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('sso_states'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('state_hash', 'text', (c) => c.notNull().unique())
        /** The SHA-256 of the random value in the starting browser's cookie: the callback must come from it. */
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('sso_states_expiry').on('sso_states').column('expires_at').execute();
    },
  };
}
