/**
 * Issue 10, defect 10: sign-up and add-user (and edit-user) never reveal whether an email address is
 * registered in another organisation: they answer as for a new address and mail the address instead.
 */
import { expect, it } from 'vitest';
import { SIGNUPS_PER_EMAIL_PER_HOUR } from '../modules/accounts/service.ts';
import { buildTeam, DEFAULT_PASSWORD, unique } from '../test/factories.ts';
import { call, describeEachDatabase, type CallAnswer, type TestEnv } from '../test/harness.ts';

const viewer = { isViewOnly: true, isEvaluator: false, isAdmin: false, isOwner: false };

async function count(env: TestEnv, table: 'organizations' | 'users') {
  const row = await env.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a caller can observe of an answer, with the address itself taken out. */
function observable(answer: CallAnswer, email: string) {
  const body = JSON.parse(JSON.stringify(answer.body).replaceAll(email, '<email>')) as Record<
    string,
    unknown
  >;
  if ('user' in body) body.user = { ...(body.user as object), id: '<id>' };
  return { status: answer.status, body, cookies: answer.cookies.map((c) => c.name) };
}

describeEachDatabase('registered email addresses are not revealed', (env) => {
  it('answers a sign-up with a registered email as any other, creates nothing, and tells the address', async () => {
    const elsewhere = await buildTeam(env);
    const fresh = `${unique('fresh')}@example.com`;
    const freshAnswer = await call(env, 'signup', {
      orgname: unique('Fresh Works '),
      email: fresh,
      password: 'a good password',
    });
    const before = { orgs: await count(env, 'organizations'), users: await count(env, 'users') };
    const mailsBefore = env.smtp.to(elsewhere.viewer.email).length;
    const takenAnswer = await call(env, 'signup', {
      orgname: unique('Copycat Works '),
      email: elsewhere.viewer.email.toUpperCase(),
      password: 'a good password',
    });
    expect(observable(takenAnswer, elsewhere.viewer.email.toUpperCase())).toEqual(
      observable(freshAnswer, fresh),
    );
    expect({ orgs: await count(env, 'organizations'), users: await count(env, 'users') }).toEqual(before);

    const notice = env.smtp.to(elsewhere.viewer.email);
    expect(notice).toHaveLength(mailsBefore + 1);
    expect(notice.at(-1)!.subject).toBe('Someone tried to sign up to Checkboard with your address');
    expect(notice.at(-1)!.text).not.toMatch(/verify\?token=/);
    // The account itself is untouched.
    const login = await call(env, 'login', { username: elsewhere.viewer.email, password: DEFAULT_PASSWORD });
    expect(login.status).toBe(200);
  });

  it('limits sign-ups per email address, registered or not, so the address cannot be flooded', async () => {
    const elsewhere = await buildTeam(env);
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNUPS_PER_EMAIL_PER_HOUR; i++) {
      const answer = await call(env, 'signup', {
        orgname: unique('Flood Works '),
        email: elsewhere.owner.email,
        password: 'a good password',
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(SIGNUPS_PER_EMAIL_PER_HOUR).fill(200), 429]);
  });

  it("answers add-user with another organisation's address as for a new one, and mails a notice, not an invitation", async () => {
    const team = await buildTeam(env);
    const elsewhere = await buildTeam(env);
    const fresh = `${unique('invitee')}@example.com`;
    const freshAnswer = await call(
      env,
      'addUser',
      { email: fresh, ...viewer },
      { cookie: team.admin.cookie },
    );
    const taken = elsewhere.evaluator.email;
    const takenAnswer = await call(
      env,
      'addUser',
      { email: taken, ...viewer },
      { cookie: team.admin.cookie },
    );
    expect(observable(takenAnswer, taken)).toEqual(observable(freshAnswer, fresh));

    // The list shows both as invited and unverified, alike.
    const users = await call(env, 'getUsers', {}, { cookie: team.admin.cookie });
    const listed = (users.body.users as { email: string; emailVerified: boolean; role: string }[]).filter(
      (u) => [fresh, taken].includes(u.email),
    );
    expect(listed.map((u) => ({ verified: u.emailVerified, role: u.role }))).toEqual([
      { verified: false, role: 'viewer' },
      { verified: false, role: 'viewer' },
    ]);

    // The address's owner is told; no invitation link that could take over the account is sent.
    const mail = env.smtp.to(taken).at(-1)!;
    expect(mail.subject).toBe(`Someone tried to add you to ${team.org.name} on Checkboard`);
    expect(mail.text).not.toContain('reset-password');
    expect(env.smtp.linkTo(fresh, '/reset-password/')).toBeTruthy();

    // The other organisation's account still signs in, to its own organisation.
    const login = await call(env, 'login', { username: taken, password: DEFAULT_PASSWORD });
    expect(login).toMatchObject({ status: 200, body: { orgName: elsewhere.org.name } });

    // Adding it twice to the same organisation is refused like any duplicate there.
    const again = await call(env, 'addUser', { email: taken, ...viewer }, { cookie: team.admin.cookie });
    const freshAgain = await call(env, 'addUser', { email: fresh, ...viewer }, { cookie: team.admin.cookie });
    expect(observable(again, taken)).toEqual(observable(freshAgain, fresh));
    expect(again.status).toBe(409);
  });

  it("answers edit-user to another organisation's address as for a new one", async () => {
    const team = await buildTeam(env);
    const elsewhere = await buildTeam(env);
    const fresh = `${unique('renamed')}@example.com`;
    const freshAnswer = await call(
      env,
      'editUser',
      { id: team.viewer.id, email: fresh, ...viewer },
      { cookie: team.admin.cookie },
    );
    const takenAnswer = await call(
      env,
      'editUser',
      { id: team.evaluator.id, email: elsewhere.owner.email, ...viewer },
      { cookie: team.admin.cookie },
    );
    expect(observable(takenAnswer, elsewhere.owner.email)).toEqual(observable(freshAnswer, fresh));
    expect(env.smtp.to(elsewhere.owner.email).at(-1)!.subject).toBe(
      `Someone tried to add you to ${team.org.name} on Checkboard`,
    );
    const login = await call(env, 'login', { username: elsewhere.owner.email, password: DEFAULT_PASSWORD });
    expect(login).toMatchObject({ status: 200, body: { orgName: elsewhere.org.name } });
  });
});
