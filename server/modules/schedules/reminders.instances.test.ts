/**
 * Exactly-once schedule reminders across instances (docs/decisions/0702): two apps, each with its own
 * connections to one database (as two processes would be), run the reminders at the same moments, many
 * times over, for several organisations in different zones; every reminder and digest reaches a real SMTP
 * server once — to each of two assignees, the second of whom the SMTP server refuses every other hour, so
 * a notice sent to one is retried for the other alone (decision 0714). On PostgreSQL when TEST_DATABASE_URL is set (the claim is then raced on the server).
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
      let failures = 0;
      for (const now of scenarioInstants()) {
        round += 1;
        // Every other hour the colleagues' mailboxes are refused: their mails are retried an hour later.
        for (const p of people)
          if (round % 2 === 0) smtp.refuse.add(p.colleague.toLowerCase());
          else smtp.refuse.delete(p.colleague.toLowerCase());
        const outcomes = await Promise.all(
          [0, 1, 0, 1, 0, 1].map((i, k) =>
            sendScheduleReminders(env.apps[i]!.services, now, `instance-${i}-run-${round}-${k}`),
          ),
        );
        const errors = outcomes.flatMap((o) => o.errors);
        // Only refused colleagues fail, and only in the hours they are refused.
        if (round % 2 === 1) expect(errors).toEqual([]);
        else
          for (const e of errors) expect(String(e)).toMatch(/mailbox unavailable|recipients were rejected/);
        failures += errors.length;
      }
      smtp.refuse.clear();
      expect(failures).toBeGreaterThan(0);

      expectScenarioMail(smtp, people);

      // What the recipient table says was sent equals what the SMTP server received, mail for mail.
      const notices = await env.db
        .selectFrom('schedule_notice_recipients')
        .select(['kind', 'sent_at'])
        .execute();
      expect(notices.every((n) => n.sent_at !== null)).toBe(true);
      const received = people.flatMap((p) => [...smtp.to(p.evaluator), ...smtp.to(p.colleague)]);
      expect(received).toHaveLength(notices.length);
      const digestRows = await env.db.selectFrom('schedule_digest_recipients').select('sent_at').execute();
      expect(people.flatMap((p) => smtp.to(p.admin))).toHaveLength(digestRows.length);
    });
  });
}
