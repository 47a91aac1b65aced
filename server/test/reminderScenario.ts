/**
 * The schedule reminders' several-instance scenario (docs/decisions/0702), shared by the in-process and
 * the two-process tests: three organisations in London, New York and Auckland, each with a daily
 * 06:00-09:00 check of one card, assigned to an evaluator and a colleague (decision 0714: each is claimed
 * and mailed on its own), made at 6 March 2026 00:00 UTC; runs every
 * hour until 10 March 00:00 UTC; and what the SMTP server must then hold.
 */
import { expect } from 'vitest';
import type { TestEnv } from './harness.ts';
import { buildBoard, buildCard, buildOrg, buildUser } from './factories.ts';
import type { SmtpCapture } from './smtp.ts';

export const SCENARIO_CREATED = Date.parse('2026-03-06T00:00:00Z');
const SCENARIO_END = Date.parse('2026-03-10T00:00:00Z');

/** Every hour from the schedules' making to the end of 9 March (UTC). */
export const scenarioInstants = () => {
  const list: number[] = [];
  for (let now = SCENARIO_CREATED; now < SCENARIO_END; now += 3_600_000) list.push(now);
  return list;
};

export interface ScenarioPerson {
  zone: string;
  evaluator: string;
  /** The second assignee. */
  colleague: string;
  admin: string;
}

export async function seedReminderScenario(env: Pick<TestEnv, 'db' | 'clock'>): Promise<ScenarioPerson[]> {
  const created = SCENARIO_CREATED;
  env.clock.set(created);
  const zones = ['Europe/London', 'America/New_York', 'Pacific/Auckland'];
  const people: ScenarioPerson[] = [];
  for (const zone of zones) {
    const org = await buildOrg(env, { timeZone: zone });
    const evaluator = await buildUser(env, org, { role: 'evaluator' });
    const colleague = await buildUser(env, org, { role: 'evaluator' });
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
      .values([
        { org_id: org.id, schedule_id: schedule.id, user_id: evaluator.id },
        { org_id: org.id, schedule_id: schedule.id, user_id: colleague.id },
      ])
      .execute();
    people.push({ zone, evaluator: evaluator.email, colleague: colleague.email, admin: admin.email });
  }
  return people;
}

/** Each open and missed mail once per expected local day, and one digest per day before the last. */
export function expectScenarioMail(smtp: SmtpCapture, people: ScenarioPerson[]) {
  for (const person of people) {
    // Local days whose 06:00-09:00 window ended after the schedule was made (6 March 00:00 UTC) and
    // before the last run: in Auckland (UTC+13) the 6th's window had ended by then, and the 10th's runs
    // 9 March 17:00-20:00 UTC.
    const days =
      person.zone === 'Pacific/Auckland'
        ? ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']
        : ['2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09'];
    for (const assignee of [person.evaluator, person.colleague]) {
      const mails = smtp.to(assignee);
      const kinds = (prefix: string) =>
        mails
          .filter((m) => m.subject.startsWith(prefix))
          .map((m) => /When: (\d{4}-\d{2}-\d{2})/.exec(m.text)?.[1])
          .sort();
      expect(kinds('Check due now'), person.zone).toEqual(days);
      expect(kinds('Check missed'), person.zone).toEqual(days);
      expect(mails, person.zone).toHaveLength(8);
    }
    // One digest per local day before the last that had a missed check, to the administrator.
    const digests = smtp
      .to(person.admin)
      .map((m) => /Missed checks on (\d{4}-\d{2}-\d{2})/.exec(m.subject)?.[1])
      .sort();
    expect(digests, person.zone).toEqual(days.slice(0, 3));
  }
}
