/**
 * Issue 10, defect 2: the sign-in limit (10 failures per account per 15 minutes) holds against parallel
 * requests, and across two server processes sharing one database: at most 10 passwords are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURES_MAX } from '../../common/constants.ts';
import { messages } from '../modules/accounts/service.ts';
import { TEST_DIALECTS } from '../test/databases.ts';
import { buildOrg, buildUser, DEFAULT_PASSWORD } from '../test/factories.ts';
import { call } from '../test/harness.ts';
import { twoInstances } from '../test/instances.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`sign-in limit under parallel requests [${dialect}]`, () => {
    let env: Awaited<ReturnType<typeof twoInstances>>;
    beforeAll(async () => {
      env = await twoInstances(dialect);
    });
    afterAll(async () => {
      await env?.close();
    });

    it('checks exactly 10 of 40 wrong passwords sent at once to two processes, then refuses the right one', async () => {
      const org = await buildOrg(env);
      const user = await buildUser(env, org);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          call(env.apps[i % 2]!, 'login', { username: user.email, password: `wrong password ${i}` }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      const checked = statuses.filter((s) => s === 401).length;
      const refused = answers.filter((a) => a.status === 429);
      // Exactly the limit: never more, and no attempt refused while a slot was free.
      expect(checked).toBe(LOGIN_FAILURES_MAX);
      expect(refused).toHaveLength(40 - LOGIN_FAILURES_MAX);
      for (const answer of refused) expect(answer.body).toEqual({ errMsg: messages.tooManyFailures });

      // The account stays locked for the right password too, on either process.
      for (const app of env.apps) {
        expect(await call(app, 'login', { username: user.email, password: DEFAULT_PASSWORD })).toMatchObject({
          status: 429,
        });
      }
      env.clock.advance(15 * 60_000);
      expect(
        (await call(env.apps[1]!, 'login', { username: user.email, password: DEFAULT_PASSWORD })).status,
      ).toBe(200);
    });

    it('still signs in with the right password when a few wrong ones race it', async () => {
      const org = await buildOrg(env);
      const user = await buildUser(env, org);
      const answers = await Promise.all([
        ...Array.from({ length: 3 }, (_, i) =>
          call(env.apps[i % 2]!, 'login', { username: user.email, password: `wrong password ${i}` }),
        ),
        call(env.apps[0]!, 'login', { username: user.email, password: DEFAULT_PASSWORD }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 200]);
    });
  });
}
