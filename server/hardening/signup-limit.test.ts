/**
 * Issue 10, defect 4: sign-up is limited per client address (and per email address, see
 * signup-privacy.test.ts), like password reset, and the limit holds when the requests arrive at once.
 */
import { expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '../../common/constants.ts';
import { SIGNUPS_PER_ADDRESS_PER_HOUR_DEFAULT as SIGNUPS_PER_ADDRESS_PER_HOUR } from '../config.ts';
import { messages } from '../modules/accounts/service.ts';
import { unique } from '../test/factories.ts';
import { describeEachDatabase, type TestEnv } from '../test/harness.ts';

async function signupFrom(env: TestEnv, address: string, email = `${unique('owner')}@example.com`) {
  const response = await env.app.inject({
    method: 'POST',
    url: '/api/signup',
    remoteAddress: address,
    headers: { 'sec-fetch-site': 'same-origin', [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: unique('key') },
    payload: { orgname: unique('Signup Works '), email, password: 'a good password' },
  });
  return { status: response.statusCode, body: response.json(), email };
}

async function organisations(env: TestEnv) {
  const row = await env.db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase('sign-up limit', (env) => {
  it('lets one address sign up only a few organisations an hour, even all at once', async () => {
    const before = await organisations(env);
    const answers = await Promise.all(Array.from({ length: 40 }, () => signupFrom(env, '203.0.113.7')));
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(SIGNUPS_PER_ADDRESS_PER_HOUR);
    expect(refused).toHaveLength(40 - SIGNUPS_PER_ADDRESS_PER_HOUR);
    for (const answer of refused) expect(answer.body).toEqual({ errMsg: messages.tooManySignups });
    expect(await organisations(env)).toBe(before + SIGNUPS_PER_ADDRESS_PER_HOUR);
    // Only the accepted sign-ups were mailed.
    for (const answer of accepted) expect(env.smtp.linkTo(answer.email, '/verify?token=')).toBeTruthy();

    // Another address is not affected; the first one may sign up again an hour later.
    expect((await signupFrom(env, '198.51.100.9')).status).toBe(200);
    expect((await signupFrom(env, '203.0.113.7')).status).toBe(429);
    env.clock.advance(60 * 60_000);
    expect((await signupFrom(env, '203.0.113.7')).status).toBe(200);
  });
});
