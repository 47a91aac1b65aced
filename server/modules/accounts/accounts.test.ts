import { expect, it } from 'vitest';
import { VERIFY_TOKEN_TTL_MS } from '../../../common/constants.ts';
import { hashToken } from '../../auth/tokens.ts';
import { buildOrg, buildUser, DEFAULT_PASSWORD, unique } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { messages } from './service.ts';

async function countRows(env: TestEnv) {
  const orgs = await env.db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const users = await env.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { orgs: Number(orgs.n), users: Number(users.n) };
}

function newSignup() {
  return {
    orgname: unique('Acme Works '),
    email: `${unique('owner')}@example.com`,
    password: 'a good password',
  };
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describeEachDatabase('sign-up and email verification', (env) => {
  it('creates the organisation and its unverified Owner, and mails a verification link', async () => {
    const input = newSignup();
    const answer = await call(env, 'signup', input);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ email: input.email });

    const user = await env.db
      .selectFrom('users')
      .selectAll()
      .where('email_key', '=', input.email)
      .executeTakeFirstOrThrow();
    expect(user.role).toBe('owner');
    expect(user.email_verified).toBe(0);
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const org = await env.db
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', user.org_id)
      .executeTakeFirstOrThrow();
    expect(org.name).toBe(input.orgname);
    expect(org.subscription_status).toBe('none');

    const link = env.smtp.linkTo(input.email, '/verify?token=');
    expect(link.startsWith('http://checkboard.test/verify?token=')).toBe(true);
    const token = tokenOf(link);
    // At least 128 random bits, and only its hash is stored.
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await env.db
      .selectFrom('one_time_tokens')
      .select(['token_hash', 'purpose'])
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toEqual([{ token_hash: hashToken(token), purpose: 'verify' }]);
  });

  it('verifies the account from the emailed link, once, and says so again if the link is reopened', async () => {
    const input = newSignup();
    await call(env, 'signup', input);
    const token = tokenOf(env.smtp.linkTo(input.email, '/verify'));
    const first = await call(env, 'verifyEmail', { token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      orgName: input.orgname,
      redirectURL: `/q/${encodeURIComponent(input.orgname)}/login`,
    });
    const user = await env.db
      .selectFrom('users')
      .select('email_verified')
      .where('email_key', '=', input.email)
      .executeTakeFirstOrThrow();
    expect(user.email_verified).toBe(1);
    expect((await call(env, 'verifyEmail', { token })).status).toBe(200);
  });

  it('refuses an unknown or expired verification link', async () => {
    expect(await call(env, 'verifyEmail', { token: 'not-a-token' })).toMatchObject({
      status: 400,
      body: { errMsg: messages.badVerifyLink },
    });
    const input = newSignup();
    await call(env, 'signup', input);
    const token = tokenOf(env.smtp.linkTo(input.email, '/verify'));
    env.clock.advance(VERIFY_TOKEN_TTL_MS);
    expect(await call(env, 'verifyEmail', { token })).toMatchObject({
      status: 400,
      body: { errMsg: messages.badVerifyLink },
    });
    const user = await env.db
      .selectFrom('users')
      .select('email_verified')
      .where('email_key', '=', input.email)
      .executeTakeFirstOrThrow();
    expect(user.email_verified).toBe(0);
  });

  it.each([
    [{ orgname: 'Acme' }, 'Name must be at least 5 characters long.', 'orgname'],
    [{ orgname: 'A'.repeat(51) }, 'Name cannot be longer that 50 characters.', 'orgname'],
    [{ orgname: 'Acme & Sons' }, 'Name contains invalid characters: &', 'orgname'],
    [{ email: 'not-an-email' }, 'Invalid email address.', 'email'],
    [{ email: `${'a'.repeat(195)}@b.com` }, 'Email address is too long.', 'email'],
    [{ password: 'short12' }, 'Password must be at least 8 characters long.', 'password'],
  ])('refuses %o with its message on its field, writing nothing', async (override, errMsg, errField) => {
    const before = await countRows(env);
    const answer = await call(env, 'signup', { ...newSignup(), ...override });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ errMsg, errField });
    expect(await countRows(env)).toEqual(before);
  });

  it('accepts a 64-character password', async () => {
    expect((await call(env, 'signup', { ...newSignup(), password: 'p'.repeat(64) })).status).toBe(200);
  });

  it('refuses a taken organisation name (any case); a taken email creates nothing and is not revealed', async () => {
    const first = newSignup();
    await call(env, 'signup', first);
    const before = await countRows(env);
    const sameOrg = await call(env, 'signup', { ...newSignup(), orgname: first.orgname.toUpperCase() });
    expect(sameOrg).toMatchObject({ status: 409, body: { errMsg: messages.orgExists, errField: 'orgname' } });
    // Issue 10: answered as a new sign-up (server/hardening/email-privacy.test.ts), the address is mailed.
    const sameEmail = await call(env, 'signup', { ...newSignup(), email: first.email.toUpperCase() });
    expect(sameEmail).toMatchObject({ status: 200, body: { email: first.email.toUpperCase() } });
    expect(await countRows(env)).toEqual(before);
  });

  it('refuses unknown fields', async () => {
    const answer = await call(env, 'signup', { ...newSignup(), role: 'owner' });
    expect(answer).toMatchObject({ status: 400, body: { errMsg: 'Unknown field: role.' } });
  });

  it('sends an unverified account a new link on request, and says nothing about unknown addresses', async () => {
    const input = newSignup();
    await call(env, 'signup', input);
    const known = await call(env, 'resendVerification', { username: input.email });
    const unknown = await call(env, 'resendVerification', { username: 'nobody@example.com' });
    expect(known).toMatchObject({ status: 200, body: {} });
    expect(unknown).toMatchObject({ status: 200, body: {} });
    expect(env.smtp.to(input.email)).toHaveLength(2);
    expect(env.smtp.to('nobody@example.com')).toHaveLength(0);
    // The first link no longer works; the new one does.
    const [firstMail, secondMail] = env.smtp.to(input.email);
    const oldToken = tokenOf(firstMail!.text.match(/https?:\/\/\S+/)![0]);
    const newToken = tokenOf(secondMail!.text.match(/https?:\/\/\S+/)![0]);
    expect((await call(env, 'verifyEmail', { token: oldToken })).status).toBe(400);
    expect((await call(env, 'verifyEmail', { token: newToken })).status).toBe(200);
  });
});

describeEachDatabase('sign-in', (env) => {
  it('signs in with a new session in HttpOnly cookies and the readable expiry', async () => {
    const org = await buildOrg(env);
    const user = await buildUser(env, org, { role: 'evaluator' });
    const answer = await call(env, 'login', {
      username: user.email.toUpperCase(),
      password: DEFAULT_PASSWORD,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ orgName: org.name, redirectURL: null });
    const session = answer.cookies.find((c) => c.name === 'cb_session')!;
    const expiry = answer.cookies.find((c) => c.name === 'session_expiry')!;
    expect(session.httpOnly).toBe(true);
    expect(expiry.httpOnly).toBeFalsy();
    expect(Number(expiry.value)).toBe(env.clock.now() + 30 * 60_000);
    const stored = await env.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toEqual([{ token_hash: hashToken(session.value) }]);
    expect(String(answer.headers['set-cookie'])).toMatch(/SameSite=Lax/);

    const again = await call(env, 'login', { username: user.email, password: DEFAULT_PASSWORD });
    expect(again.cookies.find((c) => c.name === 'cb_session')!.value).not.toBe(session.value);
  });

  it('sends an unpaid Owner to the plans', async () => {
    const org = await buildOrg(env, { paid: false });
    const owner = await buildUser(env, org, { role: 'owner' });
    const answer = await call(env, 'login', { username: owner.email, password: DEFAULT_PASSWORD });
    expect(answer.body).toEqual({ orgName: org.name, redirectURL: '/plans' });
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const org = await buildOrg(env);
    const user = await buildUser(env, org);
    const wrong = await call(env, 'login', { username: user.email, password: 'not the password' });
    const unknown = await call(env, 'login', {
      username: 'nobody@example.com',
      password: 'not the password',
    });
    expect(wrong).toMatchObject({ status: 401, body: { errMsg: messages.badCredentials } });
    expect(unknown).toMatchObject({ status: 401, body: { errMsg: messages.badCredentials } });
    expect(wrong.cookies).toEqual([]);
  });

  it("refuses another organisation's account on /q/{org}/login with the same message", async () => {
    const org = await buildOrg(env);
    const other = await buildOrg(env);
    const user = await buildUser(env, org);
    const answer = await call(env, 'login', {
      username: user.email,
      password: DEFAULT_PASSWORD,
      orgName: other.name,
    });
    expect(answer).toMatchObject({ status: 401, body: { errMsg: messages.badCredentials } });
    const own = await call(env, 'login', {
      username: user.email,
      password: DEFAULT_PASSWORD,
      orgName: org.name.toLowerCase(),
    });
    expect(own.status).toBe(200);
  });

  it('tells an unverified account to verify', async () => {
    const org = await buildOrg(env);
    const user = await buildUser(env, org, { verified: false });
    const answer = await call(env, 'login', { username: user.email, password: DEFAULT_PASSWORD });
    expect(answer).toMatchObject({ status: 403, body: { errMsg: messages.unverified } });
    expect(answer.cookies).toEqual([]);
  });

  it('requires both fields', async () => {
    expect(await call(env, 'login', { username: '', password: 'x' })).toMatchObject({
      status: 400,
      body: { errMsg: 'Email is required.' },
    });
    expect(await call(env, 'login', { username: 'a@b.co', password: '' })).toMatchObject({
      status: 400,
      body: { errMsg: 'Password is required.' },
    });
  });

  it('locks an account for 15 minutes after 10 failures, while others still sign in', async () => {
    const org = await buildOrg(env);
    const user = await buildUser(env, org);
    const bystander = await buildUser(env, org);
    for (let i = 0; i < 10; i++) {
      expect((await call(env, 'login', { username: user.email, password: 'wrong password' })).status).toBe(
        401,
      );
    }
    const locked = await call(env, 'login', { username: user.email, password: DEFAULT_PASSWORD });
    expect(locked).toMatchObject({ status: 429, body: { errMsg: messages.tooManyFailures } });
    expect((await call(env, 'login', { username: bystander.email, password: DEFAULT_PASSWORD })).status).toBe(
      200,
    );
    env.clock.advance(15 * 60_000);
    expect((await call(env, 'login', { username: user.email, password: DEFAULT_PASSWORD })).status).toBe(200);
  });
});

describeEachDatabase('password reset', (env) => {
  it('answers the same whether or not the account exists, and mails only a real one', async () => {
    const org = await buildOrg(env);
    const user = await buildUser(env, org);
    const known = await call(env, 'requestPasswordReset', { username: user.email });
    const unknown = await call(env, 'requestPasswordReset', { username: 'ghost@example.com' });
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
    expect(env.smtp.to(user.email)).toHaveLength(1);
    expect(env.smtp.to('ghost@example.com')).toHaveLength(0);
  });

  it('sets the new password from the emailed link, once, and ends every session', async () => {
    const org = await buildOrg(env);
    const user = await buildUser(env, org);
    const signedIn = await call(env, 'login', { username: user.email, password: DEFAULT_PASSWORD });
    const cookie = `cb_session=${signedIn.cookies.find((c) => c.name === 'cb_session')!.value}`;
    await call(env, 'requestPasswordReset', { username: user.email });
    const link = env.smtp.linkTo(user.email, '/reset-password/');
    expect(link.startsWith(`http://checkboard.test/q/${encodeURIComponent(org.name)}/reset-password/`)).toBe(
      true,
    );
    const token = decodeURIComponent(new URL(link).pathname.split('/').pop()!);

    const mismatch = await call(env, 'resetPassword', {
      username: user.email,
      password1: 'new password 1',
      password2: 'new password 2',
      token,
    });
    expect(mismatch).toMatchObject({
      status: 400,
      body: { errMsg: 'Passwords do not match', errField: 'password2' },
    });

    const reset = await call(env, 'resetPassword', {
      username: user.email,
      password1: 'brand new password',
      password2: 'brand new password',
      token,
    });
    expect(reset).toMatchObject({
      status: 200,
      body: { redirectURL: `/q/${encodeURIComponent(org.name)}/login` },
    });
    expect((await call(env, 'getUserData', {}, { cookie })).status).toBe(401);
    expect((await call(env, 'login', { username: user.email, password: DEFAULT_PASSWORD })).status).toBe(401);
    expect((await call(env, 'login', { username: user.email, password: 'brand new password' })).status).toBe(
      200,
    );

    const reused = await call(env, 'resetPassword', {
      username: user.email,
      password1: 'another password',
      password2: 'another password',
      token,
    });
    expect(reused).toMatchObject({ status: 400, body: { errMsg: messages.badResetLink } });
  });

  it('refuses an expired link, or one used with another email', async () => {
    const org = await buildOrg(env);
    const user = await buildUser(env, org);
    const other = await buildUser(env, org);
    await call(env, 'requestPasswordReset', { username: user.email });
    const token = decodeURIComponent(
      new URL(env.smtp.linkTo(user.email, '/reset-password/')).pathname.split('/').pop()!,
    );
    const wrongUser = await call(env, 'resetPassword', {
      username: other.email,
      password1: 'brand new password',
      password2: 'brand new password',
      token,
    });
    expect(wrongUser).toMatchObject({ status: 400, body: { errMsg: messages.badResetLink } });
    env.clock.advance(60 * 60_000);
    const expired = await call(env, 'resetPassword', {
      username: user.email,
      password1: 'brand new password',
      password2: 'brand new password',
      token,
    });
    expect(expired).toMatchObject({ status: 400, body: { errMsg: messages.badResetLink } });
    expect((await call(env, 'login', { username: user.email, password: DEFAULT_PASSWORD })).status).toBe(200);
  });

  it('limits reset requests per account and per address', async () => {
    const org = await buildOrg(env);
    const user = await buildUser(env, org);
    for (let i = 0; i < 5; i++)
      expect((await call(env, 'requestPasswordReset', { username: user.email })).status).toBe(200);
    expect(await call(env, 'requestPasswordReset', { username: user.email })).toMatchObject({
      status: 429,
      body: { errMsg: messages.tooManyResets },
    });
    expect(env.smtp.to(user.email)).toHaveLength(5);
    env.clock.advance(60 * 60_000 + 1);
    for (let i = 0; i < 20; i++) {
      // Different accounts, one address (every injected request comes from 127.0.0.1).
      const answer = await call(env, 'requestPasswordReset', { username: `someone${i}@example.com` });
      expect(answer.status).toBe(200);
    }
    expect((await call(env, 'requestPasswordReset', { username: 'one-more@example.com' })).status).toBe(429);
  });
});
