/**
 * The limit on report generation (docs/decisions/0715) holds across app instances: two apps, each with its
 * own connections to one database (as two processes would be), count one member's reports together, on
 * SQLite and, when TEST_DATABASE_URL is set, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITED_MESSAGE } from '../../http/rateLimit.ts';
import { TEST_DIALECTS } from '../../test/databases.ts';
import { buildBoard, buildCard, buildEvaluation, buildTeam } from '../../test/factories.ts';
import { twoInstances } from '../../test/instances.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`report generation limit on two instances [${dialect}]`, () => {
    let env: Awaited<ReturnType<typeof twoInstances>>;
    beforeAll(async () => {
      env = await twoInstances(dialect, { reportsPerMinute: { member: 4, org: 100, address: 100 } });
    });
    afterAll(async () => {
      await env?.close();
    });

    it('counts one member across both instances: the fifth report a minute is refused by either', async () => {
      env.clock.set(Date.parse('2026-02-02T10:00:05Z'));
      const team = await buildTeam(env);
      const card = await buildCard(env, team.org);
      const board = await buildBoard(env, team.org, { cardIds: [card.id] });
      const evaluation = await buildEvaluation(env, team.org, {
        board,
        card,
        user: team.evaluator,
        pass: true,
      });
      const fetchReport = (instance: number, cookie: string) =>
        env.apps[instance]!.app.inject({
          method: 'GET',
          url: `/api/evaluations/report.pdf?evalID=${evaluation.id}`,
          headers: { cookie, 'sec-fetch-site': 'same-origin' },
        });
      const statuses = [];
      for (const instance of [0, 1, 0, 1])
        statuses.push((await fetchReport(instance, team.admin.cookie)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200]);
      for (const instance of [0, 1]) {
        const refused = await fetchReport(instance, team.admin.cookie);
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toEqual({ errMsg: RATE_LIMITED_MESSAGE });
        expect(refused.headers['retry-after']).toBe('55');
      }
      // Another member is unaffected on either instance.
      expect((await fetchReport(1, team.evaluator.cookie)).statusCode).toBe(200);
      expect((await fetchReport(0, team.evaluator.cookie)).statusCode).toBe(200);
    });
  });
}
