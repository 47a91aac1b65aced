import { expect, it } from 'vitest';
import { buildTeam, buildUser, DEFAULT_PASSWORD } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { messages } from './service.ts';

const flags = (role: 'viewer' | 'evaluator' | 'admin' | 'owner') => ({
  isViewOnly: role === 'viewer',
  isEvaluator: role === 'evaluator',
  isAdmin: role === 'admin',
  isOwner: role === 'owner',
});

async function liveUsers(env: TestEnv, orgId: number) {
  return env.db
    .selectFrom('users')
    .select(['id', 'email', 'role'])
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

describeEachDatabase('users', (env) => {
  it('lists the organisation’s users for an admin, and nobody else’s', async () => {
    const team = await buildTeam(env);
    await buildTeam(env);
    const answer = await call(env, 'getUsers', {}, { cookie: team.admin.cookie });
    expect(answer.status).toBe(200);
    expect(answer.body.users.map((u: { email: string }) => u.email).sort()).toEqual(
      [team.owner, team.admin, team.evaluator, team.viewer].map((u) => u.email.toLowerCase()).sort(),
    );
    expect(answer.body.users[0]).toEqual({
      id: expect.any(Number),
      email: expect.any(String),
      role: expect.any(String),
      emailVerified: true,
    });
  });

  it('refuses the user calls without a session (401) and below Administrator (403)', async () => {
    const team = await buildTeam(env);
    const target = team.viewer.id;
    const attempts = [
      ['getUsers', {}],
      ['addUser', { email: 'new@example.com', ...flags('viewer') }],
      ['editUser', { id: target, email: team.viewer.email, ...flags('evaluator') }],
      ['deleteUser', { id: target }],
    ] as const;
    for (const [name, body] of attempts) {
      expect((await call(env, name, body)).status, `${name} without a session`).toBe(401);
      for (const member of [team.viewer, team.evaluator]) {
        const answer = await call(env, name, body, { cookie: member.cookie });
        expect(answer, `${name} as ${member.role}`).toMatchObject({
          status: 403,
          body: { errMsg: 'Not authorized.' },
        });
      }
    }
    expect((await liveUsers(env, team.org.id)).find((u) => u.id === target)!.role).toBe('viewer');
  });

  it('invites a new user by email; the link sets a password and the invited user signs in', async () => {
    const team = await buildTeam(env);
    const email = `invitee-${team.org.id}@example.com`;
    const added = await call(env, 'addUser', { email, ...flags('evaluator') }, { cookie: team.admin.cookie });
    expect(added).toMatchObject({
      status: 200,
      body: { user: { email, role: 'evaluator', emailVerified: false } },
    });

    const link = env.smtp.linkTo(email, '/reset-password/');
    expect(env.smtp.to(email)[0]!.subject).toBe(`You are invited to ${team.org.name} on Checkboard`);
    const token = decodeURIComponent(new URL(link).pathname.split('/').pop()!);
    expect((await call(env, 'login', { username: email, password: 'anything at all' })).status).toBe(401);
    const set = await call(env, 'resetPassword', {
      username: email,
      password1: 'my own password',
      password2: 'my own password',
      token,
    });
    expect(set.status).toBe(200);
    const login = await call(env, 'login', { username: email, password: 'my own password' });
    expect(login).toMatchObject({ status: 200, body: { orgName: team.org.name } });
  });

  it('refuses an email already in use in the organisation, and bad input, writing nothing', async () => {
    const team = await buildTeam(env);
    const before = await liveUsers(env, team.org.id);
    // Another organisation's address is not revealed (issue 10: server/hardening/email-privacy.test.ts).
    const taken = await call(
      env,
      'addUser',
      { email: team.viewer.email.toUpperCase(), ...flags('viewer') },
      { cookie: team.admin.cookie },
    );
    expect(taken).toMatchObject({ status: 409, body: { errMsg: messages.emailExists, errField: 'email' } });
    const bad = await call(
      env,
      'addUser',
      { email: 'nope', ...flags('viewer') },
      { cookie: team.admin.cookie },
    );
    expect(bad).toMatchObject({ status: 400, body: { errMsg: 'Invalid email address.', errField: 'email' } });
    expect(await liveUsers(env, team.org.id)).toEqual(before);
  });

  it('lets only an Owner grant Owner', async () => {
    const team = await buildTeam(env);
    const byAdmin = await call(
      env,
      'addUser',
      { email: `o1-${team.org.id}@example.com`, ...flags('owner') },
      { cookie: team.admin.cookie },
    );
    expect(byAdmin).toMatchObject({ status: 403, body: { errMsg: messages.ownerOnly } });
    const promote = await call(
      env,
      'editUser',
      { id: team.viewer.id, email: team.viewer.email, ...flags('owner') },
      { cookie: team.admin.cookie },
    );
    expect(promote).toMatchObject({ status: 403, body: { errMsg: messages.ownerOnly } });
    const byOwner = await call(
      env,
      'editUser',
      { id: team.viewer.id, email: team.viewer.email, ...flags('owner') },
      { cookie: team.owner.cookie },
    );
    expect(byOwner).toMatchObject({ status: 200, body: { user: { role: 'owner' } } });
    const demoteByAdmin = await call(
      env,
      'editUser',
      { id: team.viewer.id, email: team.viewer.email, ...flags('viewer') },
      { cookie: team.admin.cookie },
    );
    expect(demoteByAdmin.status).toBe(403);
    const removeByAdmin = await call(
      env,
      'deleteUser',
      { id: team.viewer.id },
      { cookie: team.admin.cookie },
    );
    expect(removeByAdmin.status).toBe(403);
  });

  it('never removes or demotes the last Owner', async () => {
    const team = await buildTeam(env);
    const demote = await call(
      env,
      'editUser',
      { id: team.owner.id, email: team.owner.email, ...flags('admin') },
      { cookie: team.owner.cookie },
    );
    expect(demote).toMatchObject({ status: 409, body: { errMsg: messages.lastOwnerDemoted } });
    const remove = await call(env, 'deleteUser', { id: team.owner.id }, { cookie: team.owner.cookie });
    expect(remove).toMatchObject({ status: 409, body: { errMsg: messages.lastOwnerRemoved } });
    expect((await liveUsers(env, team.org.id)).find((u) => u.id === team.owner.id)!.role).toBe('owner');

    const second = await buildUser(env, team.org, { role: 'owner' });
    const ok = await call(
      env,
      'editUser',
      { id: team.owner.id, email: team.owner.email, ...flags('admin') },
      { cookie: team.owner.cookie },
    );
    expect(ok.status).toBe(200);
    const last = await call(env, 'deleteUser', { id: second.id }, { cookie: team.owner.cookie });
    expect(last.status).toBe(403);
  });

  it('keeps at least one Owner when two Owners demote each other at once', async () => {
    const team = await buildTeam(env);
    const other = await buildUser(env, team.org, { role: 'owner' });
    const { signIn } = await import('../../test/factories.ts');
    const otherCookie = await signIn(env, other);
    const answers = await Promise.all([
      call(
        env,
        'editUser',
        { id: other.id, email: other.email, ...flags('admin') },
        { cookie: team.owner.cookie },
      ),
      call(
        env,
        'editUser',
        { id: team.owner.id, email: team.owner.email, ...flags('admin') },
        { cookie: otherCookie },
      ),
    ]);
    // One demotion applies. The other is refused: 409 if it waited on the first (PostgreSQL's row lock), or
    // 403 if it ran after its caller had already stopped being an Owner (SQLite serialises the two).
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    expect((await liveUsers(env, team.org.id)).filter((u) => u.role === 'owner')).toHaveLength(1);
  });

  it("answers another organisation's user as not found, changing nothing", async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const edit = await call(
      env,
      'editUser',
      { id: other.viewer.id, email: other.viewer.email, ...flags('admin') },
      { cookie: team.owner.cookie },
    );
    expect(edit).toMatchObject({ status: 404, body: { errMsg: messages.notFound } });
    const remove = await call(env, 'deleteUser', { id: other.viewer.id }, { cookie: team.owner.cookie });
    expect(remove).toMatchObject({ status: 404, body: { errMsg: messages.notFound } });
    expect((await liveUsers(env, other.org.id)).find((u) => u.id === other.viewer.id)!.role).toBe('viewer');
  });

  it('removes a user: their sessions end and they can no longer sign in', async () => {
    const team = await buildTeam(env);
    const removed = await call(env, 'deleteUser', { id: team.evaluator.id }, { cookie: team.admin.cookie });
    expect(removed).toMatchObject({ status: 200, body: { id: team.evaluator.id } });
    expect((await call(env, 'getUserData', {}, { cookie: team.evaluator.cookie })).status).toBe(401);
    expect(
      (await call(env, 'login', { username: team.evaluator.email, password: DEFAULT_PASSWORD })).status,
    ).toBe(401);
    expect(
      await env.db.selectFrom('sessions').select('id').where('user_id', '=', team.evaluator.id).execute(),
    ).toEqual([]);
    // The address can be invited again.
    const again = await call(
      env,
      'addUser',
      { email: team.evaluator.email, ...flags('viewer') },
      { cookie: team.admin.cookie },
    );
    expect(again.status).toBe(200);
  });

  it('changes a role, effective on the next call', async () => {
    const team = await buildTeam(env);
    expect((await call(env, 'getUsers', {}, { cookie: team.evaluator.cookie })).status).toBe(403);
    await call(
      env,
      'editUser',
      { id: team.evaluator.id, email: team.evaluator.email, ...flags('admin') },
      { cookie: team.admin.cookie },
    );
    expect((await call(env, 'getUsers', {}, { cookie: team.evaluator.cookie })).status).toBe(200);
  });

  it('asks a changed email address to be verified again', async () => {
    const team = await buildTeam(env);
    const email = `changed-${team.org.id}@example.com`;
    const answer = await call(
      env,
      'editUser',
      { id: team.viewer.id, email, ...flags('viewer') },
      { cookie: team.admin.cookie },
    );
    expect(answer.body.user).toEqual({ id: team.viewer.id, email, role: 'viewer', emailVerified: false });
    expect(env.smtp.linkTo(email, '/verify?token=')).toBeTruthy();
  });
});
