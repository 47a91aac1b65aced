import { expect, it } from 'vitest';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../common/constants.ts';
import { hashToken } from './tokens.ts';
import { buildOrg, buildUser, DEFAULT_PASSWORD } from '../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../test/harness.ts';

async function signInForReal(env: TestEnv) {
  const org = await buildOrg(env);
  const user = await buildUser(env, org, { role: 'evaluator' });
  const answer = await call(env, 'login', { username: user.email, password: DEFAULT_PASSWORD });
  return { user, org, cookie: `cb_session=${answer.cookies.find((c) => c.name === 'cb_session')!.value}` };
}

describeEachDatabase('sessions', (env) => {
  it('ends after 30 idle minutes: just inside works, just past does not', async () => {
    const { cookie } = await signInForReal(env);
    env.clock.advance(SESSION_IDLE_MS - 1);
    expect((await call(env, 'getUserData', {}, { cookie })).status).toBe(200);
    env.clock.advance(1);
    const expired = await call(env, 'getUserData', {}, { cookie });
    expect(expired).toMatchObject({
      status: 401,
      body: { errMsg: 'Your session has expired. Please sign in again.' },
    });
  });

  it('slides the idle expiry on refresh and rewrites session_expiry', async () => {
    const { cookie } = await signInForReal(env);
    env.clock.advance(SESSION_IDLE_MS - 60_000);
    const refreshed = await call(env, 'refreshToken', {}, { cookie });
    expect(refreshed.body).toEqual({ isAuthorized: true });
    expect(Number(refreshed.cookies.find((c) => c.name === 'session_expiry')!.value)).toBe(
      env.clock.now() + SESSION_IDLE_MS,
    );
    env.clock.advance(SESSION_IDLE_MS - 1);
    expect((await call(env, 'getUserData', {}, { cookie })).status).toBe(200);
  });

  it('ends after 12 hours however often it is refreshed: just inside works, just past does not', async () => {
    const { cookie } = await signInForReal(env);
    const start = env.clock.now();
    while (env.clock.now() + 4 * 60_000 < start + SESSION_ABSOLUTE_MS) {
      env.clock.advance(4 * 60_000);
      expect((await call(env, 'refreshToken', {}, { cookie })).body).toEqual({ isAuthorized: true });
    }
    env.clock.set(start + SESSION_ABSOLUTE_MS - 1);
    const last = await call(env, 'refreshToken', {}, { cookie });
    expect(last.body).toEqual({ isAuthorized: true });
    // The idle expiry never passes the absolute one.
    expect(Number(last.cookies.find((c) => c.name === 'session_expiry')!.value)).toBe(
      start + SESSION_ABSOLUTE_MS,
    );
    env.clock.set(start + SESSION_ABSOLUTE_MS);
    expect((await call(env, 'refreshToken', {}, { cookie })).body).toEqual({ isAuthorized: false });
    expect((await call(env, 'getUserData', {}, { cookie })).status).toBe(401);
  });

  it('lets a refresh whose answer was lost be retried', async () => {
    const { cookie } = await signInForReal(env);
    const first = await call(env, 'refreshToken', {}, { cookie, idempotencyKey: 'refresh-1' });
    const retry = await call(env, 'refreshToken', {}, { cookie, idempotencyKey: 'refresh-1' });
    expect(first.body).toEqual({ isAuthorized: true });
    expect(retry.body).toEqual({ isAuthorized: true });
    expect((await call(env, 'getUserData', {}, { cookie })).status).toBe(200);
  });

  it('answers a refresh without a session as unauthorised, clearing the cookies', async () => {
    const answer = await call(env, 'refreshToken', {});
    expect(answer).toMatchObject({ status: 200, body: { isAuthorized: false } });
    expect(answer.cookies.map((c) => c.name).sort()).toEqual(['cb_session', 'session_expiry']);
  });

  it('ends the session server-side on sign-out', async () => {
    const { cookie, org } = await signInForReal(env);
    const token = cookie.split('=')[1]!;
    expect(
      await env.db.selectFrom('sessions').select('id').where('token_hash', '=', hashToken(token)).execute(),
    ).toHaveLength(1);
    const answer = await call(env, 'logout', {}, { cookie });
    expect(answer.body).toEqual({ error: null, redirectURL: `/q/${encodeURIComponent(org.name)}/login` });
    expect((await call(env, 'getUserData', {}, { cookie })).status).toBe(401);
    const stored = await env.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashToken(cookie.split('=')[1]!))
      .execute();
    expect(stored).toEqual([]);
  });

  it('signs out to /login without a session', async () => {
    expect((await call(env, 'logout', {})).body).toEqual({ error: null, redirectURL: '/login' });
  });

  it('answers user-data with the role flags', async () => {
    const { cookie, org, user } = await signInForReal(env);
    expect((await call(env, 'getUserData', {}, { cookie })).body).toEqual({
      isAdmin: false,
      isOwner: false,
      isEvaluator: true,
      isViewOnly: false,
      isPaid: true,
      name: user.email,
      orgName: org.name,
      timeZone: 'UTC',
    });
  });
});
