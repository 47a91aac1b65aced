/**
 * Exactly-once schedule reminders across instances (docs/decisions/0702): two apps, each with its own
 * connections to one database (as two processes would be), run the reminders at the same moments, many
 * times over, for several organisations in different zones; every reminder and digest reaches a real SMTP
 * server once. On PostgreSQL when TEST_DATABASE_URL is set (the claim is then raced on the server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../test/databases.ts';
import { twoInstances } from '../../test/instances.ts';
import { expectScenarioMail, scenarioInstants, seedReminderScenario } from '../../test/reminderScenario.ts';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp.ts';
import { sendScheduleReminders } from './reminders.ts';

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
      const people = await seedReminderScenario(env);
      // Four days, New York's clock change among them, a run of both instances every hour, three
      // at a time per instance.
      let round = 0;
      for (const now of scenarioInstants()) {
        round += 1;
        const outcomes = await Promise.all(
          [0, 1, 0, 1, 0, 1].map((i, k) =>
            sendScheduleReminders(env.apps[i]!.services, now, `instance-${i}-run-${round}-${k}`),
          ),
        );
        expect(outcomes.flatMap((o) => o.errors)).toEqual([]);
      }

      expectScenarioMail(smtp, people);

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
