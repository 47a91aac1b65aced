import { sql } from 'kysely';
import type { DialectName, UntypedDb } from '../dialect.ts';

/** One live key per board and rotation period: two screens fetching the first key of a period get the same. */
export function anonymousKeys(_dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createIndex('anonymous_keys_one_live_per_period')
        .on('anonymous_keys')
        .columns(['org_id', 'board_id', 'period'])
        .unique()
        .where(sql.ref('revoked_at'), 'is', null)
        .execute();
    },
  };
}
