import { ref, withId, type DialectName, type UntypedDb } from '../dialect.ts';

/**
 * Evidence on results (issue 12, docs/decisions/0640):
 * - a short note on each result;
 * - per card item, whether a failed answer needs a photo and a note;
 * - result_photos: the photos of an evaluation's item, attached while it is open (before its results
 *   exist), each an object in the storage (server/storage) with its thumbnail.
 */
export function evidence(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema.alterTable('results').addColumn('note', 'text').execute();
      for (const column of ['photo_on_fail', 'note_on_fail']) {
        await db.schema
          .alterTable('card_items')
          .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      }
      await withId(db.schema.createTable('result_photos'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('evaluation_id', 'bigint', (c) => ref('evaluations', 'cascade')(c).notNull())
        .addColumn('item_id', 'bigint', (c) => c.notNull())
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
        .createIndex('result_photos_evaluation')
        .on('result_photos')
        .columns(['org_id', 'evaluation_id', 'item_id', 'id'])
        .execute();
    },
  };
}
