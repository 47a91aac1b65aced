import { sql } from 'kysely';
import { ref, type DialectName, type UntypedDb } from '../dialect.ts';

/**
 * Schedule reminders claimed per recipient (issue 13, docs/decisions/0714, replacing 0702's claim per
 * notice): a row per (schedule, occurrence start, kind, assignee) and per (organisation, day,
 * administrator), so a retry after a failed or interrupted send mails only those not yet mailed. What
 * the old tables say was sent is carried over, one row per assignee (or administrator) of today, so
 * nothing already sent in the reminders' look-back is sent again; claims left unsent are not carried
 * over (the next run claims them afresh). The old tables are then dropped.
 */
export function scheduleNoticeRecipients(_dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createTable('schedule_notice_recipients')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('schedule_id', 'bigint', (c) => ref('schedules', 'cascade')(c).notNull())
        .addColumn('occurrence_start', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => ref('users', 'cascade')(c).notNull())
        .addColumn('claimed_by', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('schedule_notice_recipients_pk', [
          'schedule_id',
          'occurrence_start',
          'kind',
          'user_id',
        ])
        .execute();
      await db.schema
        .createIndex('schedule_notice_recipients_org')
        .on('schedule_notice_recipients')
        .columns(['org_id', 'occurrence_start'])
        .execute();

      await db.schema
        .createTable('schedule_digest_recipients')
        .addColumn('org_id', 'bigint', (c) => ref('organizations', 'cascade')(c).notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => ref('users', 'cascade')(c).notNull())
        .addColumn('claimed_by', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('schedule_digest_recipients_pk', ['org_id', 'day', 'user_id'])
        .execute();

      await sql`
        insert into schedule_notice_recipients
          (org_id, schedule_id, occurrence_start, kind, user_id, claimed_by, sent_at, created_at)
        select n.org_id, n.schedule_id, n.occurrence_start, n.kind, a.user_id, n.claimed_by, n.sent_at,
               n.created_at
        from schedule_notices n
        join schedule_assignees a on a.schedule_id = n.schedule_id and a.org_id = n.org_id
        where n.sent_at is not null`.execute(db);
      await sql`
        insert into schedule_digest_recipients (org_id, day, user_id, claimed_by, sent_at, created_at)
        select d.org_id, d.day, u.id, d.claimed_by, d.sent_at, d.created_at
        from schedule_digests d
        join users u on u.org_id = d.org_id and u.role in ('admin', 'owner') and u.deleted_at is null
        where d.sent_at is not null`.execute(db);

      await db.schema.dropTable('schedule_notices').execute();
      await db.schema.dropTable('schedule_digests').execute();
    },
  };
}
