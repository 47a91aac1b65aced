/**
 * Issue 10, defect 7: an Idempotency-Key longer than the limit is refused with a clear message, never cut
 * (two different long keys sharing their first 200 characters used to collide).
 */
import { expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_MAX } from '../../common/constants.ts';
import { buildTeam } from '../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../test/harness.ts';

async function boardNames(env: TestEnv, orgId: number) {
  const rows = await env.db
    .selectFrom('boards')
    .select('name')
    .where('org_id', '=', orgId)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

describeEachDatabase('Idempotency-Key length', (env) => {
  it('refuses a key over the limit with 400 and writes nothing', async () => {
    const team = await buildTeam(env);
    const prefix = 'k'.repeat(IDEMPOTENCY_KEY_MAX);
    const first = await call(
      env,
      'addBoard',
      { name: 'First line', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie, idempotencyKey: `${prefix}-one` },
    );
    const second = await call(
      env,
      'addBoard',
      { name: 'Second line', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie, idempotencyKey: `${prefix}-two` },
    );
    const message = `The Idempotency-Key header must be at most ${IDEMPOTENCY_KEY_MAX} characters long.`;
    expect(first).toMatchObject({ status: 400, body: { errMsg: message } });
    expect(second).toMatchObject({ status: 400, body: { errMsg: message } });
    expect(await boardNames(env, team.org.id)).toEqual([]);
    expect(
      await env.db
        .selectFrom('idempotency_records')
        .select('id')
        .where('idem_key', 'like', `${prefix}%`)
        .execute(),
    ).toEqual([]);
  });

  it('accepts a key of exactly the limit and replays it', async () => {
    const team = await buildTeam(env);
    const key = 'x'.repeat(IDEMPOTENCY_KEY_MAX - 4) + team.org.id.toString().padStart(4, '0');
    const body = { name: 'Only line', cardIDs: [], hasAnonymous: false };
    const first = await call(env, 'addBoard', body, { cookie: team.admin.cookie, idempotencyKey: key });
    const retry = await call(env, 'addBoard', body, { cookie: team.admin.cookie, idempotencyKey: key });
    expect(first.status).toBe(200);
    expect(retry).toMatchObject({
      status: 200,
      body: first.body,
      headers: { 'idempotent-replayed': 'true' },
    });
    expect(await boardNames(env, team.org.id)).toEqual(['Only line']);
  });
});
