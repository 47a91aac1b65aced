import { expect, it } from 'vitest';
import { buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase } from '../../test/harness.ts';
import { messages } from './service.ts';

describeEachDatabase('plans and the unpaid state', (env) => {
  it('keeps a new organisation unpaid: its calls answer 402, user-data still works', async () => {
    const team = await buildTeam(env, { paid: false });
    const blocked = await call(env, 'getUsers', {}, { cookie: team.admin.cookie });
    expect(blocked).toMatchObject({ status: 402, body: { errMsg: 'Your account is unpaid.' } });
    const data = await call(env, 'getUserData', {}, { cookie: team.viewer.cookie });
    expect(data).toMatchObject({ status: 200, body: { isPaid: false } });
  });

  it('subscribes with local billing: checkout completes at once, create-app opens the organisation', async () => {
    const team = await buildTeam(env, { paid: false });
    const selected = await call(
      env,
      'selectSubscription',
      { numDepartments: 4 },
      { cookie: team.owner.cookie },
    );
    expect(selected.status).toBe(200);
    expect(selected.body.url).toMatch(/^\/create-app\?checkoutID=[\w-]{20,}$/);
    const checkoutID = new URLSearchParams(selected.body.url.split('?')[1]).get('checkoutID')!;

    const created = await call(env, 'createApp', { checkoutID }, { cookie: team.owner.cookie });
    expect(created).toMatchObject({
      status: 200,
      body: { homeURL: `/q/${encodeURIComponent(team.org.name)}/home` },
    });
    const org = await env.db
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', team.org.id)
      .executeTakeFirstOrThrow();
    expect(org).toMatchObject({ subscription_status: 'active', num_departments: 4 });
    expect((await call(env, 'getUsers', {}, { cookie: team.admin.cookie })).status).toBe(200);
    // Repeating it changes nothing.
    expect((await call(env, 'createApp', { checkoutID }, { cookie: team.owner.cookie })).status).toBe(200);
  });

  it('lets only the Owner subscribe', async () => {
    const team = await buildTeam(env, { paid: false });
    expect((await call(env, 'selectSubscription', { numDepartments: 1 })).status).toBe(401);
    for (const member of [team.admin, team.evaluator, team.viewer]) {
      expect(
        await call(env, 'selectSubscription', { numDepartments: 1 }, { cookie: member.cookie }),
      ).toMatchObject({
        status: 403,
        body: { errMsg: 'Not authorized.' },
      });
    }
  });

  it.each([0, 501, 2.5])('refuses %s departments with a clear message', async (numDepartments) => {
    const team = await buildTeam(env, { paid: false });
    const answer = await call(env, 'selectSubscription', { numDepartments }, { cookie: team.owner.cookie });
    expect(answer.status).toBe(400);
    expect(answer.body.errMsg).toMatch(/^Number of departments must be/);
    expect(
      await env.db.selectFrom('checkouts').select('id').where('org_id', '=', team.org.id).execute(),
    ).toEqual([]);
  });

  it("answers another organisation's checkout as not found", async () => {
    const team = await buildTeam(env, { paid: false });
    const other = await buildTeam(env, { paid: false });
    const selected = await call(
      env,
      'selectSubscription',
      { numDepartments: 2 },
      { cookie: other.owner.cookie },
    );
    const checkoutID = new URLSearchParams(selected.body.url.split('?')[1]).get('checkoutID')!;
    const answer = await call(env, 'createApp', { checkoutID }, { cookie: team.owner.cookie });
    expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.checkoutNotFound } });
    const org = await env.db
      .selectFrom('organizations')
      .select('subscription_status')
      .where('id', '=', team.org.id)
      .executeTakeFirstOrThrow();
    expect(org.subscription_status).toBe('none');
  });
});
