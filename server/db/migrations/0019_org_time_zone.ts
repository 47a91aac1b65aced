import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * The organisation's time zone (issue 13, docs/decisions/0587): schedules, reminders and reports read their
 * days and hours in it. Organisations made before it existed get UTC until their Owner chooses.
 */
export function orgTimeZone(_dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .alterTable('organizations')
        .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
        .execute();
    },
  };
}
