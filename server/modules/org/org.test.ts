import { expect, it } from 'vitest';
import { buildTeam, unique } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { messages } from './service.ts';

const zoneOf = async (env: TestEnv, orgId: number) =>
  (
    await env.db
      .selectFrom('organizations')
      .select(['time_zone', 'updated_at'])
      .where('id', '=', orgId)
      .executeTakeFirstOrThrow()
  ).time_zone;

describeEachDatabase('organisation settings (time zone)', (env) => {
  it('sign-up keeps the Owner’s browser zone; without one the organisation starts in UTC', async () => {
    const withZone = {
      orgname: unique('Zoned '),
      email: `${unique('z')}@example.com`,
      password: 'a good password',
    };
    expect((await call(env, 'signup', { ...withZone, timeZone: 'Pacific/Auckland' })).status).toBe(200);
    const without = {
      orgname: unique('Plain '),
      email: `${unique('p')}@example.com`,
      password: 'a good password',
    };
    expect((await call(env, 'signup', without)).status).toBe(200);
    const zones = await env.db
      .selectFrom('organizations')
      .select(['name', 'time_zone'])
      .where('name', 'in', [withZone.orgname, without.orgname])
      .execute();
    expect(Object.fromEntries(zones.map((z) => [z.name, z.time_zone]))).toEqual({
      [withZone.orgname]: 'Pacific/Auckland',
      [without.orgname]: 'UTC',
    });
  });

  it('a sign-up with an unknown zone is refused and writes nothing', async () => {
    const input = {
      orgname: unique('Mars '),
      email: `${unique('m')}@example.com`,
      password: 'a good password',
    };
    const answer = await call(env, 'signup', { ...input, timeZone: 'Mars/Olympus' });
    expect(answer).toMatchObject({ status: 400, body: { errMsg: messages.unknownTimeZone } });
    const org = await env.db
      .selectFrom('organizations')
      .select('id')
      .where('name', '=', input.orgname)
      .execute();
    expect(org).toEqual([]);
  });

  it('the Owner reads and changes the zone; every member sees it in their user data', async () => {
    const team = await buildTeam(env, { timeZone: 'Europe/London' });
    const read = await call(env, 'getOrgSettings', {}, { cookie: team.owner.cookie });
    expect(read).toMatchObject({ status: 200, body: { orgName: team.org.name, timeZone: 'Europe/London' } });
    const set = await call(
      env,
      'setOrgSettings',
      { timeZone: 'America/New_York' },
      { cookie: team.owner.cookie },
    );
    expect(set).toMatchObject({
      status: 200,
      body: { orgName: team.org.name, timeZone: 'America/New_York' },
    });
    expect(await zoneOf(env, team.org.id)).toBe('America/New_York');
    for (const member of [team.viewer, team.evaluator, team.admin]) {
      const data = await call(env, 'getUserData', {}, { cookie: member.cookie });
      expect(data.body).toMatchObject({ orgName: team.org.name, timeZone: 'America/New_York' });
    }
  });

  it('no session, or any role below Owner, is refused and changes nothing', async () => {
    const team = await buildTeam(env, { timeZone: 'Europe/London' });
    expect((await call(env, 'getOrgSettings', {})).status).toBe(401);
    expect((await call(env, 'setOrgSettings', { timeZone: 'Asia/Tokyo' })).status).toBe(401);
    for (const member of [team.viewer, team.evaluator, team.admin]) {
      expect((await call(env, 'getOrgSettings', {}, { cookie: member.cookie })).status).toBe(403);
      const refused = await call(
        env,
        'setOrgSettings',
        { timeZone: 'Asia/Tokyo' },
        { cookie: member.cookie },
      );
      expect(refused.status).toBe(403);
    }
    expect(await zoneOf(env, team.org.id)).toBe('Europe/London');
  });

  it('an Owner changes only their own organisation', async () => {
    const ours = await buildTeam(env, { timeZone: 'Europe/London' });
    const theirs = await buildTeam(env, { timeZone: 'Asia/Tokyo' });
    await call(env, 'setOrgSettings', { timeZone: 'Europe/Berlin' }, { cookie: ours.owner.cookie });
    expect(await zoneOf(env, ours.org.id)).toBe('Europe/Berlin');
    expect(await zoneOf(env, theirs.org.id)).toBe('Asia/Tokyo');
    const read = await call(env, 'getOrgSettings', {}, { cookie: ours.owner.cookie });
    expect(JSON.stringify(read.body)).not.toContain(theirs.org.name);
  });

  it('bad input gets a clear message and writes nothing', async () => {
    const team = await buildTeam(env, { timeZone: 'Europe/London' });
    for (const timeZone of ['Mars/Olympus', 'europe/london', '']) {
      const answer = await call(env, 'setOrgSettings', { timeZone }, { cookie: team.owner.cookie });
      expect(answer.status, timeZone).toBe(400);
      expect(answer.body.errMsg, timeZone).toBeTruthy();
    }
    const unknown = await call(
      env,
      'setOrgSettings',
      { timeZone: 'Mars/Olympus' },
      { cookie: team.owner.cookie },
    );
    expect(unknown.body.errMsg).toBe(messages.unknownTimeZone);
    const extra = await call(
      env,
      'setOrgSettings',
      { timeZone: 'UTC', orgName: 'x' },
      { cookie: team.owner.cookie },
    );
    expect(extra.status).toBe(400);
    expect(await zoneOf(env, team.org.id)).toBe('Europe/London');
  });

  it('a retried change is applied once: the replay answers what the first did', async () => {
    const team = await buildTeam(env, { timeZone: 'Europe/London' });
    const options = { cookie: team.owner.cookie, idempotencyKey: unique('zone-') };
    const first = await call(env, 'setOrgSettings', { timeZone: 'Asia/Tokyo' }, options);
    // Changed by someone else in between: the retry must not set it back.
    await call(env, 'setOrgSettings', { timeZone: 'Europe/Paris' }, { cookie: team.owner.cookie });
    const retry = await call(env, 'setOrgSettings', { timeZone: 'Asia/Tokyo' }, options);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await zoneOf(env, team.org.id)).toBe('Europe/Paris');
  });
});
