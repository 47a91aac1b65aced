/**
 * Migration 0025 (docs/decisions/0714): what the per-notice tables of 0020 say was sent is carried over as
 * one row per assignee (or administrator), so an upgrade does not mail the reminders' look-back again;
 * claims left unsent are dropped, and the old tables are gone.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock.ts';
import { TEST_DIALECTS, createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { buildBoard, buildCard, buildOrg, buildUser } from '../../test/factories.ts';
import { migrateToLatest } from '../migrate.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`migration 0025 [${dialect}]`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    it('carries sent notices and digests over per recipient, and drops unsent claims', async () => {
      database = await createTestDatabase(dialect, { migrate: false });
      const { db } = database.database;
      await migrateToLatest(db, dialect, (name) => name < '0025');
      const env = { db, clock: new FakeClock() };
      const org = await buildOrg(env);
      const [first, second] = [
        await buildUser(env, org, { role: 'evaluator' }),
        await buildUser(env, org, { role: 'evaluator' }),
      ];
      const admin = await buildUser(env, org, { role: 'admin' });
      const owner = await buildUser(env, org, { role: 'owner' });
      const card = await buildCard(env, org, { name: 'Fridge' });
      const board = await buildBoard(env, org, { name: 'Kitchen', cardIds: [card.id] });
      const schedule = await db
        .insertInto('schedules')
        .values({
          org_id: org.id,
          board_id: board.id,
          card_id: card.id,
          rule: 'FREQ=DAILY',
          start_date: '2026-01-01',
          end_date: null,
          window_start: 360,
          window_end: 600,
          created_by_id: admin.id,
          created_at: 1,
          updated_at: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('schedule_assignees')
        .values([first, second].map((u) => ({ org_id: org.id, schedule_id: schedule.id, user_id: u.id })))
        .execute();
      await sql`insert into schedule_notices
        (org_id, schedule_id, occurrence_start, kind, claimed_by, sent_at, created_at) values
        (${org.id}, ${schedule.id}, 1000, 'open', 'old', 1001, 1000),
        (${org.id}, ${schedule.id}, 1000, 'missed', 'old', null, 1000)`.execute(db);
      await sql`insert into schedule_digests (org_id, day, claimed_by, sent_at, created_at) values
        (${org.id}, '2026-01-01', 'old', 5, 4), (${org.id}, '2026-01-02', 'old', null, 4)`.execute(db);

      await migrateToLatest(db, dialect);

      const notices = await db
        .selectFrom('schedule_notice_recipients')
        .select(['kind', 'user_id', 'sent_at'])
        .orderBy('user_id')
        .execute();
      expect(notices.map((n) => ({ ...n, sent_at: Number(n.sent_at) }))).toEqual([
        { kind: 'open', user_id: first.id, sent_at: 1001 },
        { kind: 'open', user_id: second.id, sent_at: 1001 },
      ]);
      const digests = await db
        .selectFrom('schedule_digest_recipients')
        .select(['day', 'user_id'])
        .orderBy('user_id')
        .execute();
      expect(digests).toEqual(
        [admin.id, owner.id].sort((a, b) => a - b).map((id) => ({ day: '2026-01-01', user_id: id })),
      );
      await expect(sql`select 1 from schedule_notices`.execute(db)).rejects.toThrow();
      await expect(sql`select 1 from schedule_digests`.execute(db)).rejects.toThrow();
    });
  });
}
