import { ref, withId, type DialectName, type UntypedDb } from '../dialect.ts';

/**
 * Schedules (issue 13, docs/decisions/0700-0703): when a card is due on a board. Occurrences are computed
 * from the rule for a bounded range, never stored; the only state kept per occurrence is what was sent
 * about it (schedule_notices, keyed by schedule, occurrence start and kind, so an INSERT that conflicts is
 * a reminder another process already claimed), and one missed-checks digest per organisation and day.
 */
export function schedules(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await withId(db.schema.createTable('schedules'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('board_id', 'bigint', (c) => ref('boards', 'cascade')(c).notNull())
        .addColumn('card_id', 'bigint', (c) => ref('cards', 'cascade')(c).notNull())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('start_date', 'text', (c) => c.notNull())
        .addColumn('end_date', 'text')
        .addColumn('window_start', 'integer', (c) => c.notNull())
        .addColumn('window_end', 'integer', (c) => c.notNull())
        .addColumn('created_by_id', 'bigint', (c) => ref('users', 'set null')(c))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('schedules_board_card')
        .on('schedules')
        .columns(['org_id', 'board_id', 'card_id'])
        .execute();

      await db.schema
        .createTable('schedule_assignees')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('schedule_id', 'bigint', (c) => ref('schedules', 'cascade')(c).notNull())
        .addColumn('user_id', 'bigint', (c) => ref('users', 'cascade')(c).notNull())
        .addPrimaryKeyConstraint('schedule_assignees_pk', ['schedule_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('schedule_assignees_user')
        .on('schedule_assignees')
        .columns(['org_id', 'user_id', 'schedule_id'])
        .execute();

      // kind: 'open' (the window opened) or 'missed' (it ended without an evaluation).
      await db.schema
        .createTable('schedule_notices')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('schedule_id', 'bigint', (c) => ref('schedules', 'cascade')(c).notNull())
        .addColumn('occurrence_start', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('claimed_by', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('schedule_notices_pk', ['schedule_id', 'occurrence_start', 'kind'])
        .execute();

      // One digest of yesterday's missed checks per organisation and local day.
      await db.schema
        .createTable('schedule_digests')
        .addColumn('org_id', 'bigint', (c) => ref('organizations', 'cascade')(c).notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('claimed_by', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('schedule_digests_pk', ['org_id', 'day'])
        .execute();
    },
  };
}
