import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * Evaluations captured offline (issue 14, docs/decisions/0730): the time the device says it was completed,
 * and whether that time was kept as the evaluation's completed time.
 */
export function deviceCompletion(_dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .alterTable('evaluations')
        .addColumn('completed_on_device', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('evaluations').addColumn('device_completed_at', 'bigint').execute();
    },
  };
}
