import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * What a saved graph reports (issue 13, docs/decisions/0704): 'Evaluations' (SPEC's report modes, every
 * graph saved before) or 'ScheduleCompliance'.
 */
export function graphReports(_dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .alterTable('dashboard_settings')
        .addColumn('report', 'text', (c) => c.notNull().defaultTo('Evaluations'))
        .execute();
    },
  };
}
