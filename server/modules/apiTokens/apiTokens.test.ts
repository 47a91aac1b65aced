import { expect, it } from 'vitest';
import { API_TOKEN_CALLS_PER_MINUTE, messages as tokenMessages } from '../../auth/apiTokens.ts';
import { SECRET_ANSWER_MESSAGE } from '../../http/idempotency.ts';
import { buildBoard, buildTeam, unique } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { messages } from './service.ts';

type Team = Awaited<ReturnType<typeof buildTeam>>;
const bearer = (secret: string) => ({ headers: { authorization: `Bearer ${secret}` } });

async function addToken(
  env: TestEnv,
  cookie: string,
  body: { name?: string; access: 'read' | 'write'; expiresAt?: string | null },
) {
  const answer = await call(
    env,
    'addApiToken',
    { name: body.name ?? unique('T '), access: body.access, expiresAt: body.expiresAt ?? null },
    { cookie },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { token: { id: number; prefix: string }; secret: string };
}

const tokenRows = (env: TestEnv, orgId: number) =>
  env.db.selectFrom('api_tokens').selectAll().where('org_id', '=', orgId).execute();

describeEachDatabase('API tokens', (env) => {
  let team: Team;
  const fresh = async () => (team = await buildTeam(env));

  it('an administrator makes a token, sees its secret once, and the list never shows it', async () => {
    await fresh();
    const made = await addToken(env, team.admin.cookie, { name: 'Warehouse BI', access: 'read' });
    expect(made.secret).toMatch(/^cbt_[\w-]{43}$/);
    expect(made.secret.startsWith(made.token.prefix)).toBe(true);
    const list = await call(env, 'getApiTokens', {}, { cookie: team.owner.cookie });
    expect(list.status).toBe(200);
    expect(list.body.tokens).toEqual([
      expect.objectContaining({
        id: made.token.id,
        name: 'Warehouse BI',
        access: 'read',
        createdBy: team.admin.email,
        expiresAt: null,
        lastUsedAt: null,
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(made.secret);
    // Stored as a hash only.
    const [row] = await tokenRows(env, team.org.id);
    expect(JSON.stringify(row)).not.toContain(made.secret);
  });

  it('a read-only token reads without a cookie and is refused every change, writing nothing', async () => {
    await fresh();
    const { secret } = await addToken(env, team.admin.cookie, { access: 'read' });
    const boards = await call(env, 'getBoards', {}, bearer(secret));
    expect(boards.status).toBe(200);
    const before = await env.db.selectFrom('boards').selectAll().where('org_id', '=', team.org.id).execute();
    const refused = await call(
      env,
      'addBoard',
      { name: 'From a script', cardIDs: [], hasAnonymous: false },
      bearer(secret),
    );
    expect(refused).toMatchObject({ status: 403, body: { errMsg: tokenMessages.readOnly } });
    expect(await env.db.selectFrom('boards').selectAll().where('org_id', '=', team.org.id).execute()).toEqual(
      before,
    );
    const [row] = await tokenRows(env, team.org.id);
    expect(row!.last_used_at).toBe(env.clock.now());
  });

  it('a read-write token changes what its maker may, once per Idempotency-Key, never people or tokens', async () => {
    await fresh();
    const { secret } = await addToken(env, team.admin.cookie, { access: 'write' });
    const body = { name: unique('Line '), cardIDs: [], hasAnonymous: false };
    const options = { ...bearer(secret), idempotencyKey: 'script-run-1' };
    const first = await call(env, 'addBoard', body, options);
    const again = await call(env, 'addBoard', body, options);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const boards = await env.db
      .selectFrom('boards')
      .select('id')
      .where('org_id', '=', team.org.id)
      .where('name', '=', body.name)
      .execute();
    expect(boards).toHaveLength(1);

    for (const [name, request] of [
      [
        'addUser',
        { email: 'x@example.com', isViewOnly: true, isEvaluator: false, isAdmin: false, isOwner: false },
      ],
      ['getUsers', {}],
      ['getApiTokens', {}],
      ['addApiToken', { name: 'More', access: 'write', expiresAt: null }],
    ] as const) {
      const answer = await call(env, name, request, bearer(secret));
      expect(answer, name).toMatchObject({ status: 403, body: { errMsg: tokenMessages.personOnly } });
    }
    expect(await tokenRows(env, team.org.id)).toHaveLength(1);
  });

  it('never acts beyond its maker: an Owner’s token is an Administrator, a demoted maker’s token follows', async () => {
    await fresh();
    const { secret } = await addToken(env, team.admin.cookie, { access: 'write' });
    await env.db.updateTable('users').set({ role: 'viewer' }).where('id', '=', team.admin.id).execute();
    const refused = await call(
      env,
      'addBoard',
      { name: unique('Line '), cardIDs: [], hasAnonymous: false },
      bearer(secret),
    );
    expect(refused).toMatchObject({ status: 403, body: { errMsg: 'Not authorized.' } });
    expect((await call(env, 'getBoards', {}, bearer(secret))).status).toBe(200);

    const owners = await addToken(env, team.owner.cookie, { access: 'write' });
    const ownerOnly = await call(env, 'selectSubscription', { numDepartments: 2 }, bearer(owners.secret));
    expect(ownerOnly.status).toBe(403);
  });

  it('stops working when it expires, is revoked, or its maker is deleted', async () => {
    await fresh();
    const soon = new Date(env.clock.now() + 60 * 60_000).toISOString();
    const expiring = await addToken(env, team.admin.cookie, { access: 'read', expiresAt: soon });
    const revoked = await addToken(env, team.admin.cookie, { access: 'read' });
    const orphan = await addToken(env, team.admin.cookie, { access: 'read' });
    for (const secret of [expiring.secret, revoked.secret, orphan.secret])
      expect((await call(env, 'getBoards', {}, bearer(secret))).status).toBe(200);

    const revoke = await call(env, 'revokeApiToken', { id: revoked.token.id }, { cookie: team.owner.cookie });
    expect(revoke).toMatchObject({ status: 200, body: { id: revoked.token.id } });
    env.clock.advance(60 * 60_000);
    for (const secret of [expiring.secret, revoked.secret]) {
      const answer = await call(env, 'getBoards', {}, bearer(secret));
      expect(answer).toMatchObject({ status: 401, body: { errMsg: tokenMessages.invalid } });
    }
    await env.db
      .updateTable('users')
      .set({ deleted_at: env.clock.now() })
      .where('id', '=', team.admin.id)
      .execute();
    expect((await call(env, 'getBoards', {}, bearer(orphan.secret))).status).toBe(401);
    expect((await call(env, 'getBoards', {}, bearer('cbt_not-a-token'))).status).toBe(401);
    expect((await call(env, 'getBoards', {}, bearer('somebody else’s scheme'))).status).toBe(401);
  });

  it('counts each token’s calls a minute and refuses beyond the limit', async () => {
    await fresh();
    const { secret, token } = await addToken(env, team.admin.cookie, { access: 'read' });
    expect((await call(env, 'getBoards', {}, bearer(secret))).status).toBe(200);
    // The limit is a count in the row: bring it to the edge rather than make 600 calls.
    await env.db
      .updateTable('api_tokens')
      .set({ window_count: API_TOKEN_CALLS_PER_MINUTE - 1 })
      .where('id', '=', token.id)
      .execute();
    expect((await call(env, 'getBoards', {}, bearer(secret))).status).toBe(200);
    const over = await call(env, 'getBoards', {}, bearer(secret));
    expect(over).toMatchObject({ status: 429, body: { errMsg: tokenMessages.tooMany } });
    env.clock.advance(60_000);
    expect((await call(env, 'getBoards', {}, bearer(secret))).status).toBe(200);
  });

  it('refuses bad input with a clear message and writes nothing', async () => {
    await fresh();
    const past = new Date(env.clock.now() - 1000).toISOString();
    for (const [body, errMsg, errField] of [
      [
        { name: '', access: 'read', expiresAt: null },
        'Name must be between 1 and 30 characters long.',
        'name',
      ],
      [{ name: 'Past', access: 'read', expiresAt: past }, messages.expiryPast, 'expiresAt'],
      [{ name: 'Odd', access: 'admin', expiresAt: null }, 'Choose read only or read and write.', 'access'],
    ] as const) {
      const answer = await call(env, 'addApiToken', body, { cookie: team.admin.cookie });
      expect(answer).toMatchObject({ status: 400, body: { errMsg, errField } });
    }
    expect(await tokenRows(env, team.org.id)).toEqual([]);
  });

  it('a retried creation applies once and never answers the secret again', async () => {
    await fresh();
    const body = { name: 'Retry', access: 'read', expiresAt: null } as const;
    const options = { cookie: team.admin.cookie, idempotencyKey: 'make-token-1' };
    const first = await call(env, 'addApiToken', body, options);
    const again = await call(env, 'addApiToken', body, options);
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 409, body: { errMsg: SECRET_ANSWER_MESSAGE } });
    expect(await tokenRows(env, team.org.id)).toHaveLength(1);
    const kept = await env.db.selectFrom('idempotency_records').select('response_body').execute();
    expect(kept.map((r) => r.response_body).join()).not.toContain(first.body.secret);
  });

  it("another organisation's token is not found, and its own tokens keep working", async () => {
    await fresh();
    const other = await buildTeam(env);
    const theirs = await addToken(env, other.admin.cookie, { access: 'read' });
    const answer = await call(env, 'revokeApiToken', { id: theirs.token.id }, { cookie: team.owner.cookie });
    expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.notFound } });
    expect((await call(env, 'getBoards', {}, bearer(theirs.secret))).status).toBe(200);
    // A token reads only its own organisation.
    const ours = await buildBoard(env, team.org, { name: unique('Ours ') });
    const others = await buildBoard(env, other.org, { name: unique('Theirs ') });
    const mine = await addToken(env, team.admin.cookie, { access: 'read' });
    const names = async (secret: string) =>
      ((await call(env, 'getBoards', {}, bearer(secret))).body.boards as { name: string }[]).map(
        (b) => b.name,
      );
    expect(await names(mine.secret)).toEqual([ours.name]);
    expect(await names(theirs.secret)).toEqual([others.name]);
  });
});
