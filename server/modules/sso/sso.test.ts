/**
 * Single sign-on (docs/decisions/0720) against a real OpenID Connect provider (oidc-provider) started here
 * on a random local port: settings and their access rules, sign-in with just-in-time membership, and every
 * refusal (wrong audience, expired ID token, replayed or foreign state, SSO off, unverified or foreign
 * addresses, removed members), and password sign-in when SSO is required. Both databases.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SSO_CALLBACK_PATH, SSO_FAILURES, ssoMessages } from '../../../common/sso.ts';
import { SESSION_COOKIE } from '../../auth/sessions.ts';
import { buildTeam, unique } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { signInAtProvider, startTestProvider, type TestProvider } from '../../test/oidcProvider.ts';
import { runMaintenance } from '../../jobs/maintenance.ts';
import { authorizationUrl, discover, exchange, newChecks, reasonOf } from './oidc.ts';
import { SSO_BROWSER_COOKIE, SSO_STARTS_PER_ADDRESS, SSO_STATE_TTL_MS } from './service.ts';

const CLIENT = { client_id: 'checkboard', client_secret: 'the-apps-client-secret' };
const OTHER_CLIENT = { client_id: 'another-app', client_secret: 'another-apps-secret' };
const REDIRECT_URI = `http://checkboard.test${SSO_CALLBACK_PATH}`;

type Team = Awaited<ReturnType<typeof buildTeam>>;

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider({
    clients: [CLIENT, OTHER_CLIENT].map((c) => ({ ...c, redirect_uris: [REDIRECT_URI] })),
  });
});
afterAll(() => provider?.close());

const settingsBody = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  issuer: provider.issuer,
  clientId: CLIENT.client_id,
  clientSecret: CLIENT.client_secret,
  defaultRole: 'evaluator',
  allowedDomains: [],
  requireSso: false,
  ...overrides,
});

async function configure(env: TestEnv, team: Team, overrides: Record<string, unknown> = {}) {
  const answer = await call(env, 'setSsoSettings', settingsBody(overrides), { cookie: team.owner.cookie });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer;
}

/** A person known to the provider; answers their account id there. */
function person(email: string, verified = true) {
  const id = unique('acct');
  provider.accounts.set(id, { email, email_verified: verified });
  return id;
}

const cookieOf = (cookies: { name: string; value: string }[], name: string) =>
  cookies.find((c) => c.name === name && c.value !== '')?.value;

/** Starts a sign-in as the browser does; answers the provider URL and the browser cookie. */
async function start(env: TestEnv, orgName: string) {
  const answer = await call(env, 'startSso', { orgName });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const browser = cookieOf(answer.cookies, SSO_BROWSER_COOKIE)!;
  expect(browser).toBeTruthy();
  return { url: answer.body.redirectURL as string, browser };
}

async function callback(env: TestEnv, returned: URL, browser: string | null) {
  expect(`${returned.origin}${returned.pathname}`).toBe(REDIRECT_URI);
  const response = await env.app.inject({
    method: 'GET',
    url: `${returned.pathname}${returned.search}`,
    headers: browser ? { cookie: `${SSO_BROWSER_COOKIE}=${browser}` } : {},
  });
  expect(response.statusCode).toBe(303);
  const session = cookieOf(response.cookies as { name: string; value: string }[], SESSION_COOKIE);
  return {
    location: String(response.headers.location),
    cookie: session ? `${SESSION_COOKIE}=${session}` : null,
  };
}

/** The whole sign-in: start, the provider's pages, the callback. */
async function ssoSignIn(env: TestEnv, orgName: string, accountId: string) {
  const { url, browser } = await start(env, orgName);
  return callback(env, await signInAtProvider(url, accountId), browser);
}

const loginPage = (orgName: string) => `/q/${encodeURIComponent(orgName)}/login`;
const users = (env: TestEnv, orgId: number) =>
  env.db.selectFrom('users').selectAll().where('org_id', '=', orgId).orderBy('id').execute();

describeEachDatabase('single sign-on', (env) => {
  let team: Team;
  beforeEach(async () => {
    // The provider signs with the real time; the app's clock starts there.
    env.clock.set(Date.now());
    provider.idTokenTtl = 3600;
    provider.impersonate = null;
    team = await buildTeam(env);
  });

  it('the Owner saves the settings; the secret is stored and never answered, only whether it is set', async () => {
    const before = await call(env, 'getSsoSettings', {}, { cookie: team.owner.cookie });
    expect(before.body).toEqual({
      settings: {
        enabled: false,
        issuer: '',
        clientId: '',
        clientSecretSet: false,
        defaultRole: 'viewer',
        allowedDomains: [],
        requireSso: false,
      },
      redirectURI: REDIRECT_URI,
    });
    const saved = await configure(env, team, { allowedDomains: [' Example.com ', 'example.org'] });
    expect(JSON.stringify(saved.body)).not.toContain(CLIENT.client_secret);
    const read = await call(env, 'getSsoSettings', {}, { cookie: team.owner.cookie });
    expect(read.body.settings).toEqual({
      enabled: true,
      issuer: provider.issuer,
      clientId: CLIENT.client_id,
      clientSecretSet: true,
      defaultRole: 'evaluator',
      allowedDomains: ['example.com', 'example.org'],
      requireSso: false,
    });
    expect(JSON.stringify(read.body)).not.toContain(CLIENT.client_secret);
    // Saved again without a secret: the stored one is kept.
    const { clientSecret: _, ...withoutSecret } = settingsBody({ defaultRole: 'viewer' });
    await call(env, 'setSsoSettings', withoutSecret, { cookie: team.owner.cookie });
    const row = await env.db
      .selectFrom('sso_settings')
      .selectAll()
      .where('org_id', '=', team.org.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ client_secret: CLIENT.client_secret, default_role: 'viewer' });
  });

  it('the sign-in page learns only whether SSO is on', async () => {
    const options = (orgName: string) => call(env, 'getSsoLoginOptions', { orgName });
    expect((await options(team.org.name)).body).toEqual({ enabled: false });
    await configure(env, team);
    expect(await options(team.org.name.toUpperCase())).toMatchObject({
      status: 200,
      body: { enabled: true },
    });
    expect((await options('No such organisation')).body).toEqual({ enabled: false });
  });

  it('an unknown, verified address becomes a member at the default role and is signed in', async () => {
    await configure(env, team);
    const email = `${unique('new')}@example.com`;
    const signedIn = await ssoSignIn(env, team.org.name, person(email));
    expect(signedIn.location).toBe(`${loginPage(team.org.name)}?sso=signed-in`);
    expect(signedIn.cookie).toBeTruthy();
    const me = await call(env, 'getUserData', {}, { cookie: signedIn.cookie! });
    expect(me.body).toMatchObject({
      name: email,
      orgName: team.org.name,
      isEvaluator: true,
      isAdmin: false,
      isOwner: false,
    });
    const added = (await users(env, team.org.id)).find((u) => u.email === email);
    expect(added).toMatchObject({
      role: 'evaluator',
      password_hash: null,
      email_verified: 1,
      deleted_at: null,
    });
  });

  it('an existing member signs in as themselves, keeping their role', async () => {
    await configure(env, team);
    const before = await users(env, team.org.id);
    const signedIn = await ssoSignIn(env, team.org.name, person(team.admin.email.toUpperCase()));
    expect(signedIn.location).toBe(`${loginPage(team.org.name)}?sso=signed-in`);
    const me = await call(env, 'getUserData', {}, { cookie: signedIn.cookie! });
    expect(me.body).toMatchObject({ name: team.admin.email, isAdmin: true, isOwner: false });
    expect(await users(env, team.org.id)).toEqual(before);
  });

  it('an unpaid organisation’s Owner is sent to the plans after signing in', async () => {
    const unpaid = await buildTeam(env, { paid: false });
    // An unpaid organisation's calls are refused (402): its settings are written as they were when paid.
    await configure(env, team);
    await env.db
      .updateTable('sso_settings')
      .set({ org_id: unpaid.org.id })
      .where('org_id', '=', team.org.id)
      .execute();
    const signedIn = await ssoSignIn(env, unpaid.org.name, person(unpaid.owner.email));
    expect(signedIn.location).toBe(
      `${loginPage(unpaid.org.name)}?sso=signed-in&redirect=${encodeURIComponent('/plans')}`,
    );
    expect(signedIn.cookie).toBeTruthy();
  });

  it('refuses an ID token issued for another client (wrong audience)', async () => {
    await configure(env, team);
    const email = `${unique('aud')}@example.com`;
    provider.impersonate = { clientId: OTHER_CLIENT.client_id, clientSecret: OTHER_CLIENT.client_secret };
    const refused = await ssoSignIn(env, team.org.name, person(email));
    expect(refused).toEqual({ location: `${loginPage(team.org.name)}?sso=failed`, cookie: null });
    expect((await users(env, team.org.id)).map((u) => u.email)).not.toContain(email);
  });

  it('refuses an expired ID token', async () => {
    await configure(env, team);
    provider.idTokenTtl = 60;
    const email = `${unique('late')}@example.com`;
    const { url, browser } = await start(env, team.org.name);
    const returned = await signInAtProvider(url, person(email));
    // Five minutes on: the sign-in itself is still fresh, the ID token (one minute) is not.
    env.clock.advance(5 * 60_000);
    const refused = await callback(env, returned, browser);
    expect(refused).toEqual({ location: `${loginPage(team.org.name)}?sso=failed`, cookie: null });
    expect((await users(env, team.org.id)).map((u) => u.email)).not.toContain(email);
  });

  it('uses each state once: a replayed callback is refused, and so is a late one', async () => {
    await configure(env, team);
    const { url, browser } = await start(env, team.org.name);
    const returned = await signInAtProvider(url, person(team.viewer.email));
    expect((await callback(env, returned, browser)).cookie).toBeTruthy();
    const replayed = await callback(env, returned, browser);
    expect(replayed).toEqual({ location: `${loginPage(team.org.name)}?sso=expired`, cookie: null });

    const late = await start(env, team.org.name);
    const lateReturn = await signInAtProvider(late.url, person(team.viewer.email));
    env.clock.advance(SSO_STATE_TTL_MS + 1);
    expect(await callback(env, lateReturn, late.browser)).toEqual({
      location: `${loginPage(team.org.name)}?sso=expired`,
      cookie: null,
    });

    const forged = new URL(returned);
    forged.searchParams.set('state', 'a state nobody issued');
    expect(await callback(env, forged, browser)).toEqual({ location: '/login?sso=expired', cookie: null });
  });

  it('two callbacks with the same state at once: one signs in, the other is refused', async () => {
    await configure(env, team);
    const { url, browser } = await start(env, team.org.name);
    const returned = await signInAtProvider(url, person(team.evaluator.email));
    const both = await Promise.all([callback(env, returned, browser), callback(env, returned, browser)]);
    expect(both.filter((answer) => answer.cookie !== null)).toHaveLength(1);
    expect(both.map((answer) => answer.location).sort()).toEqual([
      `${loginPage(team.org.name)}?sso=expired`,
      `${loginPage(team.org.name)}?sso=signed-in`,
    ]);
  });

  it('the hourly purge removes sign-ins past their expiry, used or not', async () => {
    await configure(env, team);
    await start(env, team.org.name);
    const states = () =>
      env.db.selectFrom('sso_states').select('id').where('org_id', '=', team.org.id).execute();
    expect(await states()).toHaveLength(1);
    await runMaintenance(env.services);
    expect(await states()).toHaveLength(1);
    await runMaintenance(env.services, env.clock.now() + SSO_STATE_TTL_MS);
    expect(await states()).toEqual([]);
  });

  it('an unreachable provider: the start says so, writes no state and leaks nothing of the cause', async () => {
    // A port nobody listens on (the provider's own, after a test server there closed).
    const closed = await startTestProvider({ clients: [] });
    await closed.close();
    await configure(env, team, { issuer: closed.issuer });
    const answer = await call(env, 'startSso', { orgName: team.org.name });
    expect(answer).toEqual(
      expect.objectContaining({ status: 502, body: { errMsg: ssoMessages.providerUnreachable } }),
    );
    expect(
      await env.db.selectFrom('sso_states').select('id').where('org_id', '=', team.org.id).execute(),
    ).toEqual([]);
  });

  it('limits the starts from one address, since each writes a row and asks the provider', async () => {
    await configure(env, team);
    // Bring the address to the edge rather than make 60 starts.
    const bucket = 'sso-start:127.0.0.1';
    await env.db.deleteFrom('rate_limit_events').where('bucket', '=', bucket).execute();
    await env.db
      .insertInto('rate_limit_events')
      .values(
        Array.from({ length: SSO_STARTS_PER_ADDRESS - 1 }, () => ({ bucket, created_at: env.clock.now() })),
      )
      .execute();
    expect((await call(env, 'startSso', { orgName: team.org.name })).status).toBe(200);
    const refused = await call(env, 'startSso', { orgName: team.org.name });
    expect(refused).toMatchObject({ status: 429, body: { errMsg: ssoMessages.tooManyStarts } });
    expect(
      await env.db.selectFrom('sso_states').select('id').where('org_id', '=', team.org.id).execute(),
    ).toHaveLength(1);
    await env.db.deleteFrom('rate_limit_events').where('bucket', '=', bucket).execute();
  });

  it('refuses a callback in another browser than the one that started the sign-in', async () => {
    await configure(env, team);
    const { url } = await start(env, team.org.name);
    const returned = await signInAtProvider(url, person(team.viewer.email));
    expect(await callback(env, returned, null)).toEqual({
      location: `${loginPage(team.org.name)}?sso=failed`,
      cookie: null,
    });
  });

  it('refuses when SSO is off: no start, and a sign-in in flight is not finished', async () => {
    await configure(env, team, { enabled: false });
    const notStarted = await call(env, 'startSso', { orgName: team.org.name });
    expect(notStarted).toMatchObject({ status: 400, body: { errMsg: ssoMessages.notEnabled } });
    expect((await call(env, 'startSso', { orgName: 'No such organisation' })).status).toBe(400);

    await configure(env, team);
    const { url, browser } = await start(env, team.org.name);
    const returned = await signInAtProvider(url, person(team.viewer.email));
    await configure(env, team, { enabled: false });
    expect(await callback(env, returned, browser)).toEqual({
      location: `${loginPage(team.org.name)}?sso=disabled`,
      cookie: null,
    });
  });

  it('refuses an unverified address, one outside the allowed domains, and a cancelled sign-in', async () => {
    await configure(env, team, { allowedDomains: ['acme.example'] });
    const before = await users(env, team.org.id);
    const unverified = await ssoSignIn(env, team.org.name, person(`${unique('u')}@acme.example`, false));
    expect(unverified).toEqual({ location: `${loginPage(team.org.name)}?sso=unverified`, cookie: null });
    const outside = await ssoSignIn(env, team.org.name, person(`${unique('o')}@elsewhere.example`));
    expect(outside).toEqual({ location: `${loginPage(team.org.name)}?sso=domain`, cookie: null });
    const { url, browser } = await start(env, team.org.name);
    const cancelled = await callback(env, await signInAtProvider(url, 'anyone', { cancel: true }), browser);
    expect(cancelled).toEqual({ location: `${loginPage(team.org.name)}?sso=cancelled`, cookie: null });
    expect(await users(env, team.org.id)).toEqual(before);

    const inside = await ssoSignIn(env, team.org.name, person(`${unique('i')}@ACME.example`));
    expect(inside.cookie).toBeTruthy();
  });

  it('a deleted member stays out, and an address of another organisation is not taken', async () => {
    await configure(env, team);
    const deleted = await call(env, 'deleteUser', { id: team.viewer.id }, { cookie: team.owner.cookie });
    expect(deleted.status).toBe(200);
    const removed = await ssoSignIn(env, team.org.name, person(team.viewer.email));
    expect(removed).toEqual({ location: `${loginPage(team.org.name)}?sso=removed`, cookie: null });

    const other = await buildTeam(env);
    const elsewhere = await ssoSignIn(env, team.org.name, person(other.viewer.email));
    expect(elsewhere).toEqual({ location: `${loginPage(team.org.name)}?sso=elsewhere`, cookie: null });
    expect((await users(env, team.org.id)).filter((u) => u.deleted_at === null)).toHaveLength(3);
  });

  it('require SSO refuses password sign-in and password reset to all but the Owner', async () => {
    await configure(env, team, { requireSso: true });
    const password = (user: { email: string; password: string }) =>
      call(env, 'login', { username: user.email, password: user.password, orgName: team.org.name });
    expect(await password(team.admin)).toMatchObject({
      status: 403,
      body: { errMsg: ssoMessages.ssoRequired },
    });
    expect(await password(team.viewer)).toMatchObject({ status: 403 });
    // A wrong password is told nothing about SSO.
    expect(await password({ email: team.admin.email, password: 'wrong' })).toMatchObject({ status: 401 });
    expect(await password(team.owner)).toMatchObject({ status: 200, body: { orgName: team.org.name } });

    // A reset sends no link; a link sent before SSO was required sets no password.
    expect((await call(env, 'requestPasswordReset', { username: team.admin.email })).status).toBe(200);
    expect(env.smtp.to(team.admin.email)).toEqual([]);
    await configure(env, team, { requireSso: false });
    expect((await call(env, 'requestPasswordReset', { username: team.evaluator.email })).status).toBe(200);
    expect(env.smtp.to(team.evaluator.email)).toHaveLength(1);
    const link = env.smtp.linkTo(team.evaluator.email, '/reset-password/');
    const token = decodeURIComponent(new URL(link).pathname.split('/').pop()!);
    await configure(env, team, { requireSso: true });
    const hashBefore = (await users(env, team.org.id)).find((u) => u.id === team.evaluator.id)!.password_hash;
    const reset = await call(env, 'resetPassword', {
      username: team.evaluator.email,
      password1: 'a brand new password',
      password2: 'a brand new password',
      token,
    });
    expect(reset).toMatchObject({ status: 403, body: { errMsg: ssoMessages.ssoRequired } });
    const after = (await users(env, team.org.id)).find((u) => u.id === team.evaluator.id)!;
    expect(after.password_hash).toBe(hashBefore);

    // SSO still signs them in.
    expect((await ssoSignIn(env, team.org.name, person(team.admin.email))).cookie).toBeTruthy();
  });

  it('settings calls: no session 401, below Owner 403, another organisation’s never readable', async () => {
    await configure(env, team);
    const row = () =>
      env.db.selectFrom('sso_settings').selectAll().where('org_id', '=', team.org.id).execute();
    const before = await row();
    expect(await call(env, 'getSsoSettings', {})).toMatchObject({ status: 401 });
    expect(await call(env, 'setSsoSettings', settingsBody({ enabled: false }))).toMatchObject({
      status: 401,
    });
    for (const role of ['admin', 'evaluator', 'viewer'] as const) {
      const cookie = team[role].cookie;
      expect(await call(env, 'getSsoSettings', {}, { cookie })).toMatchObject({
        status: 403,
        body: { errMsg: 'Not authorized.' },
      });
      const set = await call(env, 'setSsoSettings', settingsBody({ enabled: false }), { cookie });
      expect(set).toMatchObject({ status: 403, body: { errMsg: 'Not authorized.' } });
    }
    const other = await buildTeam(env);
    const theirs = await call(env, 'getSsoSettings', {}, { cookie: other.owner.cookie });
    expect(theirs.body.settings).toMatchObject({ enabled: false, issuer: '', clientSecretSet: false });
    expect(JSON.stringify(theirs.body)).not.toContain(provider.issuer);
    // Their own save writes their own row only.
    await configure(env, other, { clientId: 'their-client' });
    expect(await row()).toEqual(before);
  });

  it('refuses bad input with a clear message and writes nothing', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ clientId: '  ' }, ssoMessages.clientIdRequired, 'clientId'],
      [{ issuer: '' }, ssoMessages.issuerRequired, 'issuer'],
      [{ issuer: 'not a url' }, ssoMessages.issuerInvalid, 'issuer'],
      [{ issuer: 'ftp://login.example.com' }, ssoMessages.issuerNotHttps, 'issuer'],
      [{ defaultRole: 'owner' }, ssoMessages.role, 'defaultRole'],
      [{ allowedDomains: ['not a domain'] }, ssoMessages.domain, 'allowedDomains'],
      [{ clientSecret: '' }, ssoMessages.clientSecretRequired, 'clientSecret'],
      [{ enabled: false, requireSso: true }, ssoMessages.requireNeedsEnabled, 'requireSso'],
    ];
    for (const [overrides, errMsg, errField] of cases) {
      const answer = await call(env, 'setSsoSettings', settingsBody(overrides), {
        cookie: team.owner.cookie,
      });
      expect(answer, errMsg).toMatchObject({ status: 400, body: { errMsg, errField } });
    }
    expect(
      await env.db.selectFrom('sso_settings').selectAll().where('org_id', '=', team.org.id).execute(),
    ).toEqual([]);
  });

  it('a retried save applies once', async () => {
    const options = { cookie: team.owner.cookie, idempotencyKey: unique('sso-save-') };
    const first = await call(env, 'setSsoSettings', settingsBody(), options);
    env.clock.advance(1000);
    const again = await call(env, 'setSsoSettings', settingsBody(), options);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const rows = await env.db
      .selectFrom('sso_settings')
      .selectAll()
      .where('org_id', '=', team.org.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.updated_at).toBe(env.clock.now() - 1000);
    const kept = await env.db.selectFrom('idempotency_records').select('response_body').execute();
    expect(kept.map((r) => r.response_body).join()).not.toContain(CLIENT.client_secret);
  });

  it('the failure codes all have words for the sign-in page', () => {
    for (const code of ['failed', 'expired', 'disabled', 'unverified', 'domain', 'removed', 'elsewhere'])
      expect(SSO_FAILURES).toHaveProperty(code);
  });
});

describe('the OpenID Connect client checks the ID token itself', () => {
  const app = { issuer: '', clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret };
  beforeEach(() => {
    app.issuer = provider.issuer;
    provider.idTokenTtl = 3600;
    provider.impersonate = null;
  });

  async function returnedCode(now: number) {
    const config = await discover(app, { allowInsecure: true, now });
    const checks = newChecks();
    const url = await authorizationUrl(config, REDIRECT_URI, checks);
    const returned = await signInAtProvider(url.href, person(`${unique('oidc')}@example.com`));
    return () => exchange(config, returned, checks);
  }

  it('answers the verified address (from UserInfo when the ID token has none)', async () => {
    const identity = await (await returnedCode(Date.now()))();
    expect(identity).toMatchObject({ email: expect.stringMatching(/@example\.com$/), emailVerified: true });
  });

  it('refuses an ID token for another audience', async () => {
    provider.impersonate = { clientId: OTHER_CLIENT.client_id, clientSecret: OTHER_CLIENT.client_secret };
    const error = await (await returnedCode(Date.now()))().catch((e: unknown) => e);
    expect(reasonOf(error)).toMatch(/"aud" \(audience\)/);
  });

  it('refuses an expired ID token, by the app’s clock', async () => {
    provider.idTokenTtl = 60;
    const error = await (await returnedCode(Date.now() + 5 * 60_000))().catch((e: unknown) => e);
    expect(reasonOf(error)).toMatch(/"exp" \(expiration time\)/);
  });

  it('refuses a plain http:// issuer unless allowed', async () => {
    const error = await discover(app, { allowInsecure: false, now: Date.now() }).catch((e: unknown) => e);
    expect(reasonOf(error)).toMatch(/https/i);
  });
});

describeEachDatabase(
  'single sign-on where plain http is not allowed (production)',
  (env) => {
    it('refuses an http:// issuer and writes nothing', async () => {
      const team = await buildTeam(env);
      const answer = await call(
        env,
        'setSsoSettings',
        {
          enabled: true,
          issuer: 'http://login.example.com',
          clientId: 'checkboard',
          clientSecret: 'a secret',
          defaultRole: 'viewer',
          allowedDomains: [],
          requireSso: false,
        },
        { cookie: team.owner.cookie },
      );
      expect(answer).toMatchObject({
        status: 400,
        body: { errMsg: ssoMessages.issuerNotHttps, errField: 'issuer' },
      });
      expect(await env.db.selectFrom('sso_settings').selectAll().execute()).toEqual([]);
    });
  },
  { config: () => ({ ssoAllowInsecure: false }) },
);
