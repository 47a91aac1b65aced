/**
 * Exactly-once schedule reminders across instances (docs/decisions/0702): two apps, each with its own
 * connections to one database (as two processes would be), run the reminders at the same moments, many
 * times over, for several organisations in different zones; every reminder and digest reaches a real SMTP
 * server once. On PostgreSQL when TEST_DATABASE_URL is set (the claim is then raced on the server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../test/databases.ts';
import { buildBoard, buildCard, buildOrg, buildUser } from '../../test/factories.ts';
import { twoInstances } from '../../test/instances.ts';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp.ts';
import { sendScheduleReminders } from './reminders.ts';

const MINUTE = 60_000;

for (const dialect of TEST_DIALECTS) {
  describe(`schedule reminders on two instances [${dialect}]`, () => {
    let smtp: SmtpCapture;
    let env: Awaited<ReturnType<typeof twoInstances>>;
    beforeAll(async () => {
      smtp = await startSmtpCapture();
      env = await twoInstances(dialect, { smtpUrl: smtp.url });
    });
    afterAll(async () => {
      await env?.close();
      await smtp?.close();
    });

    it('sends each window-open, missed and digest mail once, whichever instance claims it', async () => {
      const created = Date.parse('2026-03-06T00:00:00Z');
      env.clock.set(created);
      const zones = ['Europe/London', 'America/New_York', 'Pacific/Auckland'];
      const people: { zone: string; evaluator: string; admin: string }[] = [];
      for (const zone of zones) {
        const org = await buildOrg(env, { timeZone: zone });
        const evaluator = await buildUser(env, org, { role: 'evaluator' });
        const admin = await buildUser(env, org, { role: 'admin' });
        const card = await buildCard(env, org, { name: 'Walk-in fridge' });
        const board = await buildBoard(env, org, { name: 'Cold room', cardIds: [card.id] });
        const schedule = await env.db
          .insertInto('schedules')
          .values({
            org_id: org.id,
            board_id: board.id,
            card_id: card.id,
            rule: 'FREQ=DAILY',
            start_date: '2026-03-01',
            end_date: null,
            window_start: 6 * 60,
            window_end: 9 * 60,
            created_by_id: admin.id,
            created_at: created,
            updated_at: created,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await env.db
          .insertInto('schedule_assignees')
          .values({ org_id: org.id, schedule_id: schedule.id, user_id: evaluator.id })
          .execute();
        people.push({ zone, evaluator: evaluator.email, admin: admin.email });
      }

      // Four days, New York's clock change among them, a run of both instances every hour, three
      // at a time per instance.
      const end = Date.parse('2026-03-10T00:00:00Z');
      let round = 0;
      for (let now = created; now < end; now += 60 * MINUTE) {
        round += 1;
        const outcomes = await Promise.all(
          [0, 1, 0, 1, 0, 1].map((i, k) =>
            sendScheduleReminders(env.apps[i]!.services, now, `instance-${i}-run-${round}-${k}`),
          ),
        );
        expect(outcomes.flatMap((o) => o.errors)).toEqual([]);
      }

      for (const person of people) {
        const mails = smtp.to(person.evaluator);
        const kinds = (prefix: string) =>
          mails
            .filter((m) => m.subject.startsWith(prefix))
            .map((m) => /When: (\d{4}-\d{2}-\d{2})/.exec(m.text)?.[1])
            .sort();
        // Local days whose 06:00-09:00 window ended after the schedule was made (6 March 00:00 UTC) and
        // before the last run: in Auckland (UTC+13) the 6th's window had ended by then, and the 10th's runs
        // 9 March 17:00-20:00 UTC.
        const days =
          person.zone === 'Pacific/Auckland'
            ? ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']
            : ['2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09'];
        expect(kinds('Check due now'), person.zone).toEqual(days);
        expect(kinds('Check missed'), person.zone).toEqual(days);
        expect(mails, person.zone).toHaveLength(8);
        // One digest per local day before the last that had a missed check, to the administrator.
        const digests = smtp
          .to(person.admin)
          .map((m) => /Missed checks on (\d{4}-\d{2}-\d{2})/.exec(m.subject)?.[1])
          .sort();
        expect(digests, person.zone).toEqual(days.slice(0, 3));
      }

      // What the notice table says was sent equals what the SMTP server received.
      const notices = await env.db.selectFrom('schedule_notices').select(['kind', 'sent_at']).execute();
      expect(notices.every((n) => n.sent_at !== null)).toBe(true);
      const received = people.flatMap((p) => smtp.to(p.evaluator));
      expect(received).toHaveLength(notices.length);
      const digestRows = await env.db.selectFrom('schedule_digests').select('sent_at').execute();
      expect(people.flatMap((p) => smtp.to(p.admin))).toHaveLength(digestRows.length);
    });
  });
}
