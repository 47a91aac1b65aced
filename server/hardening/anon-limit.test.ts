/**
 * The -anon calls' per-address limit is counted in the database (decision 0600): requests sent at once
 * to two processes on one database share one count per address and minute, and other addresses have
 * their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITED_MESSAGE } from '../http/rateLimit.ts';
import { TEST_DIALECTS } from '../test/databases.ts';
import { buildBoard, buildCard, buildTeam } from '../test/factories.ts';
import { call } from '../test/harness.ts';
import { twoInstances } from '../test/instances.ts';

const LIMIT = 30;

for (const dialect of TEST_DIALECTS) {
  describe(`-anon limit across processes [${dialect}]`, () => {
    let env: Awaited<ReturnType<typeof twoInstances>>;
    beforeAll(async () => {
      env = await twoInstances(dialect, { anonymousCallsPerMinute: LIMIT, trustProxy: true });
    });
    afterAll(async () => {
      await env?.close();
    });

    it('answers exactly the limit of 80 calls sent at once to two processes from one address', async () => {
      const team = await buildTeam(env);
      const card = await buildCard(env, team.org);
      const board = await buildBoard(env, team.org, { hasAnonymous: true, cardIds: [card.id] });
      const issued = await call(
        env.apps[0]!,
        'getAnonymousEvaluationKey',
        { boardID: board.id },
        { cookie: team.viewer.cookie },
      );
      expect(issued.status).toBe(200);
      const fields = { orgName: team.org.name, boardID: board.id, anonKey: issued.body.key };
      const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          call(env.apps[i % 2]!, 'getBoardAnon', fields, from('203.0.113.7')),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(LIMIT);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(80 - LIMIT);
      for (const answer of refused) expect(answer.body).toEqual({ errMsg: RATE_LIMITED_MESSAGE });

      // Another address is counted apart; the first is refused on both processes until the next minute.
      expect((await call(env.apps[1]!, 'getBoardAnon', fields, from('203.0.113.8'))).status).toBe(200);
      for (const app of env.apps)
        expect((await call(app, 'getBoardAnon', fields, from('203.0.113.7'))).status).toBe(429);
      env.clock.advance(60_000);
      expect((await call(env.apps[0]!, 'getBoardAnon', fields, from('203.0.113.7'))).status).toBe(200);
    });
  });
}
