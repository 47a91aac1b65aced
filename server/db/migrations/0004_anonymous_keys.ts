import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

/** One live key per board and rotation period: two screens fetching the first key of a period get the same. */
export function anonymousKeys(_dialect: DialectName) {
  return {
    async up(db: Kysely<any>) {
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
