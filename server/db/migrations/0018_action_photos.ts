import type { DialectName, UntypedDb } from '../dialect.ts';
import { ref, withId } from '../dialect.ts';

/** Photos on an action's close-out (issue 12, docs/decisions/0586): stored like result photos. */
export function actionPhotos(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await withId(db.schema.createTable('action_photos'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('action_id', 'bigint', (c) => ref('actions', 'cascade')(c).notNull())
        .addColumn('user_id', 'bigint', (c) => ref('users', 'set null')(c))
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('thumb_key', 'text', (c) => c.notNull())
        .addColumn('thumb_type', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('action_photos_action')
        .on('action_photos')
        .columns(['org_id', 'action_id', 'id'])
        .execute();
    },
  };
}
