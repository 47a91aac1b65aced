import { expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../../common/constants.ts';
import { buildTeam, signIn } from '../test/factories.ts';
import { call, describeEachDatabase } from '../test/harness.ts';

/** add-user's body for a view-only member: the call these tests repeat. */
const viewer = (email: string) => ({
  email,
  isViewOnly: true,
  isEvaluator: false,
  isAdmin: false,
  isOwner: false,
});

describeEachDatabase('idempotency', (env) => {
  it('applies a call retried after its answer was lost only once, and replays the first answer', async () => {
    const team = await buildTeam(env);
    const email = `retried-${team.org.id}@example.com`;
    const body = { email, isViewOnly: false, isEvaluator: true, isAdmin: false, isOwner: false };
    const first = await call(env, 'addUser', body, { cookie: team.admin.cookie, idempotencyKey: 'action-1' });
    // The answer is lost on the way; the client retries with the same key.
    const retry = await call(env, 'addUser', body, { cookie: team.admin.cookie, idempotencyKey: 'action-1' });
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const rows = await env.db.selectFrom('users').select('id').where('email_key', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(env.smtp.to(email)).toHaveLength(1);
  });

  it('refuses the same key with a different body (422), writing nothing', async () => {
    const team = await buildTeam(env);
    await call(env, 'addUser', viewer(`k1-${team.org.id}@example.com`), {
      cookie: team.admin.cookie,
      idempotencyKey: 'action-2',
    });
    const reused = await call(env, 'addUser', viewer(`k2-${team.org.id}@example.com`), {
      cookie: team.admin.cookie,
      idempotencyKey: 'action-2',
    });
    expect(reused).toMatchObject({
      status: 422,
      body: { errMsg: 'This request key was already used for a different request.' },
    });
    expect(
      await env.db
        .selectFrom('users')
        .select('id')
        .where('email_key', '=', `k2-${team.org.id}@example.com`)
        .execute(),
    ).toEqual([]);
  });

  it('keeps keys per caller: another user with the same key is a different request', async () => {
    const team = await buildTeam(env);
    const a = await call(env, 'addUser', viewer(`a-${team.org.id}@example.com`), {
      cookie: team.admin.cookie,
      idempotencyKey: 'shared',
    });
    const b = await call(env, 'addUser', viewer(`b-${team.org.id}@example.com`), {
      cookie: team.owner.cookie,
      idempotencyKey: 'shared',
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.user.email).toBe(`b-${team.org.id}@example.com`);
  });

  it('does not store a refused call: the corrected retry with the same key applies', async () => {
    const team = await buildTeam(env);
    const refused = await call(env, 'addUser', viewer('bad'), {
      cookie: team.admin.cookie,
      idempotencyKey: 'action-3',
    });
    expect(refused.status).toBe(400);
    const again = await call(env, 'addUser', viewer('bad'), {
      cookie: team.admin.cookie,
      idempotencyKey: 'action-3',
    });
    expect(again.status).toBe(400);
  });

  it('treats a key older than its time to live as new: the call applies again, and its retry replays', async () => {
    const team = await buildTeam(env);
    const first = `old-${team.org.id}@example.com`;
    const second = `new-${team.org.id}@example.com`;
    expect(
      (await call(env, 'addUser', viewer(first), { cookie: team.admin.cookie, idempotencyKey: 'aged' }))
        .status,
    ).toBe(200);
    env.clock.advance(IDEMPOTENCY_TTL_MS + 1);
    const cookie = await signIn(env, team.admin); // the first session has ended by now
    // The same key a day later, with another body: not a reuse (422) but a new request.
    const later = await call(env, 'addUser', viewer(second), {
      cookie,
      idempotencyKey: 'aged',
    });
    expect(later.status).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    const retry = await call(env, 'addUser', viewer(second), {
      cookie,
      idempotencyKey: 'aged',
    });
    expect(retry).toMatchObject({ status: 200, body: later.body });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const users = await env.db
      .selectFrom('users')
      .select('email_key')
      .where('email_key', 'in', [first, second])
      .execute();
    expect(users.map((u) => u.email_key).sort()).toEqual([second, first].sort());
    const records = await env.db
      .selectFrom('idempotency_records')
      .select('request_hash')
      .where('idem_key', '=', 'aged')
      .where('scope', '=', `user:${team.admin.id}`)
      .execute();
    expect(records).toHaveLength(1);
  });

  it('replays two concurrent copies of one request as one', async () => {
    const team = await buildTeam(env);
    const email = `twice-${team.org.id}@example.com`;
    const body = viewer(email);
    const answers = await Promise.all([
      call(env, 'addUser', body, { cookie: team.admin.cookie, idempotencyKey: 'race' }),
      call(env, 'addUser', body, { cookie: team.admin.cookie, idempotencyKey: 'race' }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    // Either both answered alike (replay) or the second was told the first is still running.
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect(
      await env.db.selectFrom('users').select('id').where('email_key', '=', email).execute(),
    ).toHaveLength(1);
  });

  it('replays sign-up too: a retried sign-up does not fail on its own first attempt', async () => {
    const input = {
      orgname: 'Retry Works Ltd',
      email: 'retry-signup@example.com',
      password: 'a good password',
    };
    const first = await call(env, 'signup', input, { idempotencyKey: 'signup-1' });
    const retry = await call(env, 'signup', input, { idempotencyKey: 'signup-1' });
    expect(first.status).toBe(200);
    expect(retry).toMatchObject({ status: 200, body: first.body });
    expect(env.smtp.to(input.email)).toHaveLength(1);
  });
});
