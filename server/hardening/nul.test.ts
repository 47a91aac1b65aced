/**
 * Issue 10, defect 3: a NUL character in any text field is refused with 400 and a clear message, before
 * anything reaches the database (PostgreSQL refused it with a 500; SQLite stored it).
 */
import { expect, it } from 'vitest';
import { buildBoard, buildCard, buildOrg, buildTeam, buildUser, signIn } from '../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../test/harness.ts';

const NUL = '\u0000';

async function count(
  env: TestEnv,
  table: 'organizations' | 'users' | 'boards' | 'cards' | 'feedback' | 'card_items',
) {
  const row = await env.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase('NUL characters in text fields', (env) => {
  it('refuses them in sign-up, sign-in and password reset, writing nothing', async () => {
    const before = { orgs: await count(env, 'organizations'), users: await count(env, 'users') };
    const cases = [
      call(env, 'signup', {
        orgname: `Acme${NUL}Works`,
        email: 'nul1@example.com',
        password: 'a good password',
      }),
      call(env, 'signup', {
        orgname: 'Acme Nul Works',
        email: `nul${NUL}2@example.com`,
        password: 'a good password',
      }),
      call(env, 'signup', {
        orgname: 'Acme Nul Works',
        email: 'nul3@example.com',
        password: `a good${NUL}password`,
      }),
      call(env, 'login', { username: `someone${NUL}@example.com`, password: 'whatever password' }),
      call(env, 'login', { username: 'someone@example.com', password: `what${NUL}ever` }),
      call(env, 'requestPasswordReset', { username: `someone${NUL}@example.com` }),
      call(env, 'resendVerification', { username: `someone${NUL}@example.com` }),
      call(env, 'resetPassword', {
        username: 'someone@example.com',
        password1: 'a new password',
        password2: 'a new password',
        token: `tok${NUL}en`,
      }),
      call(env, 'verifyEmail', { token: `tok${NUL}en` }),
    ];
    const fields = [
      'orgname',
      'email',
      'password',
      'username',
      'password',
      'username',
      'username',
      'token',
      'token',
    ];
    const answers = await Promise.all(cases);
    answers.forEach((answer, i) => {
      expect(answer.status, fields[i]).toBe(400);
      expect(answer.body.errMsg).toBe(`${fields[i]} must not contain a NUL character.`);
      expect(answer.body.errField).toBe(fields[i]);
    });
    expect({ orgs: await count(env, 'organizations'), users: await count(env, 'users') }).toEqual(before);
  });

  it('refuses them in names, card items, feedback and search filters of a signed-in member', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const board = await buildBoard(env, team.org, { cardIds: [card.id] });
    const cookie = team.owner.cookie;
    const before = {
      boards: await count(env, 'boards'),
      cards: await count(env, 'cards'),
      items: await count(env, 'card_items'),
      feedback: await count(env, 'feedback'),
    };
    const answers = await Promise.all([
      call(env, 'addBoard', { name: `Line${NUL}1`, cardIDs: [], hasAnonymous: false }, { cookie }),
      call(env, 'addCard', { name: `Card${NUL}1` }, { cookie }),
      call(
        env,
        'addCardItem',
        { cardID: card.id, type: 'instruction', content: `<p>a${NUL}b</p>`, na: false, order: 5 },
        { cookie },
      ),
      call(env, 'addFeedback', { boardID: board.id, content: `bad${NUL}feedback` }, { cookie }),
      call(env, 'searchEvaluations', { boardName: `x${NUL}` }, { cookie }),
    ]);
    const fields = ['name', 'name', 'content', 'content', 'boardName'];
    answers.forEach((answer, i) => {
      expect(answer.status, fields[i]).toBe(400);
      expect(answer.body).toEqual({
        errMsg: `${fields[i]} must not contain a NUL character.`,
        errField: fields[i],
      });
    });
    expect({
      boards: await count(env, 'boards'),
      cards: await count(env, 'cards'),
      items: await count(env, 'card_items'),
      feedback: await count(env, 'feedback'),
    }).toEqual(before);
  });

  it('refuses them in the user calls', async () => {
    const org = await buildOrg(env);
    const owner = await buildUser(env, org);
    const cookie = await signIn(env, owner);
    const answer = await call(
      env,
      'addUser',
      {
        email: `new${NUL}@example.com`,
        isViewOnly: true,
        isEvaluator: false,
        isAdmin: false,
        isOwner: false,
      },
      { cookie },
    );
    expect(answer).toMatchObject({
      status: 400,
      body: { errMsg: 'email must not contain a NUL character.' },
    });
  });
});
