import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * Several app processes on one database (issue 10, docs/decisions/0600-0601):
 * - rate_limit_windows: fixed-window counters (one row per bucket and window, counted by an upsert), for
 *   limits checked on every request (the -anon calls per address), where a row per event would be many;
 * - job_runs: one row per periodic job, claimed by one process at a time through a lease.
 */
export function scaleOut(_dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createTable('rate_limit_windows')
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_windows_pk', ['bucket', 'window_start'])
        .execute();
      await db.schema
        .createIndex('rate_limit_windows_start')
        .on('rate_limit_windows')
        .column('window_start')
        .execute();

      await db.schema
        .createTable('job_runs')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('next_run_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .addColumn('runs', 'integer', (c) => c.notNull())
        .addColumn('last_started_at', 'bigint')
        .addColumn('last_finished_at', 'bigint')
        .addColumn('last_error', 'text')
        .execute();
    },
  };
}
