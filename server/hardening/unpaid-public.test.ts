/**
 * Issue 10, defect 1: a member of an unpaid organisation is never answered 402 on the public calls or on
 * those DECISIONS.md allows while unpaid; signing out really ends the session.
 */
import { expect, it } from 'vitest';
import { buildOrg, buildUser, DEFAULT_PASSWORD, signIn } from '../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../test/harness.ts';

async function unpaidMember(env: TestEnv, role: 'owner' | 'viewer' = 'viewer') {
  const org = await buildOrg(env, { paid: false });
  const user = await buildUser(env, org, { role });
  return { org, user, cookie: await signIn(env, user) };
}

describeEachDatabase('unpaid organisation: public calls', (env) => {
  it('signs an unpaid member out, and the session no longer works', async () => {
    const { org, cookie } = await unpaidMember(env);
    const answer = await call(env, 'logout', {}, { cookie });
    expect(answer).toMatchObject({
      status: 200,
      body: { error: null, redirectURL: `/q/${encodeURIComponent(org.name)}/login` },
    });
    const after = await call(env, 'getUserData', {}, { cookie });
    expect(after.status).toBe(401);
    const refresh = await call(env, 'refreshToken', {}, { cookie });
    expect(refresh).toMatchObject({ status: 200, body: { isAuthorized: false } });
  });

  it('refreshes the session and answers user-data while unpaid', async () => {
    const { cookie } = await unpaidMember(env);
    expect(await call(env, 'refreshToken', {}, { cookie })).toMatchObject({
      status: 200,
      body: { isAuthorized: true },
    });
    expect(await call(env, 'getUserData', {}, { cookie })).toMatchObject({
      status: 200,
      body: { isPaid: false },
    });
  });

  it('never answers 402 to a public call made with an unpaid session', async () => {
    const { user, cookie } = await unpaidMember(env, 'owner');
    const other = await buildUser(env, await buildOrg(env), { role: 'viewer' });
    const answers = {
      login: await call(env, 'login', { username: other.email, password: DEFAULT_PASSWORD }, { cookie }),
      signup: await call(
        env,
        'signup',
        {
          orgname: `Fresh ${user.id} Works`,
          email: `fresh${user.id}@example.com`,
          password: 'a good password',
        },
        { cookie },
      ),
      verifyEmail: await call(env, 'verifyEmail', { token: 'not-a-token' }, { cookie }),
      resendVerification: await call(env, 'resendVerification', { username: user.email }, { cookie }),
      requestPasswordReset: await call(env, 'requestPasswordReset', { username: user.email }, { cookie }),
      resetPassword: await call(
        env,
        'resetPassword',
        { username: user.email, password1: 'a new password', password2: 'a new password', token: 'nope' },
        { cookie },
      ),
    };
    for (const [name, answer] of Object.entries(answers)) {
      expect({ name, status: answer.status }).not.toEqual({ name, status: 402 });
    }
    expect(answers.login.status).toBe(200);
    expect(answers.signup.status).toBe(200);
    expect(answers.requestPasswordReset.status).toBe(200);
    expect(answers.resendVerification.status).toBe(200);
    expect(answers.verifyEmail.status).toBe(400);
    expect(answers.resetPassword.status).toBe(400);
  });

  it('still answers 402 to an organisation call that is not allowed while unpaid', async () => {
    const { cookie } = await unpaidMember(env);
    expect(await call(env, 'getBoards', {}, { cookie })).toMatchObject({
      status: 402,
      body: { errMsg: 'Your account is unpaid.' },
    });
  });
});
