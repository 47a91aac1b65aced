import type { KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import { SEARCH_PAGE_DEFAULT } from '../../../common/constants.ts';
import {
  buildBoard,
  buildCard,
  buildEvaluation,
  buildOrg,
  buildTeam,
  buildUser,
  signIn,
} from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { searchMessages } from '../shared/search.ts';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const ids = (answer: { body: { evaluations: { ID: number }[] } }) => answer.body.evaluations.map((e) => e.ID);

async function setup(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org, { name: 'Press check' });
  const board = await buildBoard(env, team.org, { name: 'Line One', cardIds: [card.id] });
  return { team, card, board };
}

/** Counts the queries the app makes while `run` runs (every handler reads services.db per request). */
async function countQueries(env: TestEnv, run: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      count++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const original = env.services.db;
  env.services.db = original.withPlugin(plugin);
  try {
    await run();
  } finally {
    env.services.db = original;
  }
  return count;
}

describeEachDatabase('search-evaluations', (env) => {
  it('shows a member their own completed evaluations; an administrator in editing mode everyone’s', async () => {
    const s = await setup(env);
    const now = env.clock.now();
    const at = (minutesAgo: number) => now - minutesAgo * MINUTE;
    const mine = await buildEvaluation(env, s.team.org, { ...s, user: s.team.evaluator, completedAt: at(3) });
    const admins = await buildEvaluation(env, s.team.org, { ...s, user: s.team.admin, completedAt: at(2) });
    const anonymous = await buildEvaluation(env, s.team.org, { ...s, user: null, completedAt: at(1) });
    await buildEvaluation(env, s.team.org, { ...s, user: s.team.evaluator, completedAt: null });
    const other = await setup(env);
    await buildEvaluation(env, other.team.org, { ...other, user: other.team.evaluator });

    const search = (cookie: string, isEditing?: boolean) =>
      call(env, 'searchEvaluations', isEditing === undefined ? {} : { isEditing }, { cookie });
    expect(ids(await search(s.team.evaluator.cookie))).toEqual([mine.id]);
    // isEditing is an administrator's right: an evaluator asking for it still sees their own.
    expect(ids(await search(s.team.evaluator.cookie, true))).toEqual([mine.id]);
    expect(ids(await search(s.team.admin.cookie, false))).toEqual([admins.id]);
    expect(ids(await search(s.team.admin.cookie, true))).toEqual([anonymous.id, admins.id, mine.id]);
    expect(ids(await search(s.team.owner.cookie, true))).toEqual([anonymous.id, admins.id, mine.id]);

    const page = await search(s.team.admin.cookie, true);
    expect(page.body.evaluations[1]).toEqual({
      ID: admins.id,
      boardID: s.board.id,
      boardName: 'Line One',
      cardID: s.card.id,
      cardName: 'Press check',
      userName: s.team.admin.email,
      pass: true,
      hasFeedback: false,
      completedTime: iso(at(2)),
      isUsers: true,
    });
    expect(page.body.evaluations[0]).toMatchObject({ userName: 'Anonymous', isUsers: false });
  });

  it('filters by completed date range and by board, card and user name, case-insensitively', async () => {
    const team = await buildTeam(env);
    const now = env.clock.now();
    const card1 = await buildCard(env, team.org, { name: 'Über Check' });
    const card2 = await buildCard(env, team.org, { name: 'Forklift' });
    const board1 = await buildBoard(env, team.org, { name: 'Line 100%', cardIds: [card1.id, card2.id] });
    const board2 = await buildBoard(env, team.org, { name: 'Line 1000', cardIds: [card1.id, card2.id] });
    const under = await buildUser(env, team.org, { role: 'evaluator', email: `a_b.${now}@example.com` });
    const plain = await buildUser(env, team.org, { role: 'evaluator', email: `AXB.${now}@example.com` });
    const e = async (board: typeof board1, card: typeof card1, user: typeof under, minutesAgo: number) =>
      (await buildEvaluation(env, team.org, { board, card, user, completedAt: now - minutesAgo * MINUTE }))
        .id;
    const e1 = await e(board1, card1, under, 50);
    const e2 = await e(board1, card2, plain, 40);
    const e3 = await e(board2, card1, plain, 30);
    const e4 = await e(board2, card2, under, 20);

    const search = (filter: Record<string, unknown>) =>
      call(env, 'searchEvaluations', { isEditing: true, ...filter }, { cookie: team.owner.cookie });
    expect(ids(await search({}))).toEqual([e4, e3, e2, e1]);
    // LIKE's wildcards are the user's text, not patterns.
    expect(ids(await search({ boardName: '100%' }))).toEqual([e2, e1]);
    expect(ids(await search({ boardName: 'line 1' }))).toEqual([e4, e3, e2, e1]);
    expect(ids(await search({ userName: 'a_b' }))).toEqual([e4, e1]);
    expect(ids(await search({ userName: 'axb' }))).toEqual([e3, e2]);
    // Case folding is the same on both databases, beyond ASCII.
    expect(ids(await search({ cardName: 'ÜBER' }))).toEqual([e3, e1]);
    expect(ids(await search({ cardName: '  über ' }))).toEqual([e3, e1]);
    expect(ids(await search({ cardName: 'lift', userName: 'A_B' }))).toEqual([e4]);
    expect(ids(await search({ cardName: '' }))).toEqual([e4, e3, e2, e1]);
    // The date range is inclusive at both ends.
    expect(
      ids(await search({ startDateTime: iso(now - 40 * MINUTE), endDateTime: iso(now - 30 * MINUTE) })),
    ).toEqual([e3, e2]);
    expect(ids(await search({ startDateTime: iso(now - 25 * MINUTE) }))).toEqual([e4]);
    expect(ids(await search({ endDateTime: iso(now - 45 * MINUTE) }))).toEqual([e1]);
    expect(ids(await search({ boardName: 'nothing like it' }))).toEqual([]);
  });

  it('pages by completed time then id without skipping or repeating while evaluations arrive', async () => {
    const s = await setup(env);
    const start = env.clock.now();
    const expected: number[] = [];
    // Twelve evaluations, several sharing a completed time, so that the id decides between them.
    for (let i = 0; i < 12; i++) {
      const row = await buildEvaluation(env, s.team.org, {
        ...s,
        user: s.team.evaluator,
        completedAt: start - Math.floor(i / 3) * MINUTE,
      });
      expected.push(row.id);
    }
    const newestFirst = [...expected].sort((a, b) => {
      const time = (id: number) => start - Math.floor(expected.indexOf(id) / 3) * MINUTE;
      return time(b) - time(a) || b - a;
    });

    const seen: number[] = [];
    let cursor: { previousDateTime?: string; previousID?: number } = {};
    let maxDateTime: string | undefined;
    for (let page = 0; page < 10; page++) {
      const answer = await call(
        env,
        'searchEvaluations',
        { quantity: 5, ...cursor, ...(maxDateTime ? { maxDateTime } : {}) },
        { cookie: s.team.evaluator.cookie },
      );
      expect(answer.status).toBe(200);
      const rows = answer.body.evaluations as { ID: number; completedTime: string }[];
      if (page === 0) maxDateTime = rows[0]!.completedTime;
      seen.push(...rows.map((r) => r.ID));
      if (rows.length < 5) break;
      const last = rows.at(-1)!;
      cursor = { previousDateTime: last.completedTime, previousID: last.ID };
      // New evaluations complete between pages: at the time of the first page's newest row (a higher id),
      // and later.
      env.clock.advance(1_000);
      await buildEvaluation(env, s.team.org, { ...s, user: s.team.evaluator, completedAt: start });
      await buildEvaluation(env, s.team.org, { ...s, user: s.team.evaluator });
    }
    expect(seen).toEqual(newestFirst);

    // maxDateTime freezes the set: asking for page 1 again gives the same rows, without the newcomers at
    // a later time. (Rows at exactly maxDateTime are in the set.)
    const again = await call(
      env,
      'searchEvaluations',
      { quantity: 5, maxDateTime: iso(start - 1) },
      { cookie: s.team.evaluator.cookie },
    );
    expect(ids(again)).toEqual(newestFirst.slice(3, 8));
  });

  it('pages 48 rows by default and at most 200, and refuses a cursor id without its time', async () => {
    const s = await setup(env);
    const now = env.clock.now();
    const rows = Array.from({ length: 50 }, (_, i) => i);
    for (const i of rows) {
      await buildEvaluation(env, s.team.org, { ...s, user: s.team.evaluator, completedAt: now - i * MINUTE });
    }
    const cookie = s.team.evaluator.cookie;
    expect(ids(await call(env, 'searchEvaluations', {}, { cookie }))).toHaveLength(SEARCH_PAGE_DEFAULT);
    expect(ids(await call(env, 'searchEvaluations', { quantity: 200 }, { cookie }))).toHaveLength(50);
    expect(await call(env, 'searchEvaluations', { quantity: 201 }, { cookie })).toMatchObject({
      status: 400,
      body: { errMsg: 'quantity must be at most 200.', errField: 'quantity' },
    });
    expect(await call(env, 'searchEvaluations', { quantity: 0 }, { cookie })).toMatchObject({
      status: 400,
      body: { errMsg: 'quantity must be at least 1.' },
    });
    expect(await call(env, 'searchEvaluations', { previousID: 4 }, { cookie })).toMatchObject({
      status: 400,
      body: { errMsg: searchMessages.cursorNeedsTime, errField: 'previousDateTime' },
    });
    expect(await call(env, 'searchEvaluations', { boardName: 'x'.repeat(101) }, { cookie })).toMatchObject({
      status: 400,
      body: { errMsg: 'boardName must be at most 100 characters long.' },
    });
    // A time without an id: strictly before that time.
    const before = await call(
      env,
      'searchEvaluations',
      { previousDateTime: iso(now - 47 * MINUTE) },
      { cookie },
    );
    expect(ids(before)).toHaveLength(2);
  });

  it('answers search-evaluations-with-results with each one’s results, in two queries whatever the page size', async () => {
    const s = await setup(env);
    const items = [
      { item_id: s.card.itemIds[0]!, item_type: 'instruction' as const, position: 0, content: '<p>Look</p>' },
      {
        item_id: s.card.itemIds[1]!,
        item_type: 'pass_fail' as const,
        position: 1,
        content: '<p>Guards</p>',
        pass: false,
      },
      {
        item_id: s.card.itemIds[2]!,
        item_type: 'pass_fail' as const,
        position: 2,
        content: '<p>Floor</p>',
        na: true,
      },
    ];
    const now = env.clock.now();
    const made: number[] = [];
    for (let i = 0; i < 20; i++) {
      const row = await buildEvaluation(env, s.team.org, {
        ...s,
        user: s.team.evaluator,
        completedAt: now - i * MINUTE,
        pass: false,
        results: [...items].reverse(),
      });
      made.push(row.id);
    }
    const cookie = s.team.evaluator.cookie;
    const answer = await call(env, 'searchEvaluationsWithResults', { quantity: 2 }, { cookie });
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual([made[0], made[1]]);
    expect(answer.body.evaluations[0].results).toEqual([
      {
        item_id: items[0]!.item_id,
        type: 'instruction',
        order: 0,
        pass: null,
        text_result: null,
        numeric_result: null,
        na: false,
        content: '<p>Look</p>',
        note: null,
        photos: [],
      },
      {
        item_id: items[1]!.item_id,
        type: 'pass_fail',
        order: 1,
        pass: false,
        text_result: null,
        numeric_result: null,
        na: false,
        content: '<p>Guards</p>',
        note: null,
        photos: [],
      },
      {
        item_id: items[2]!.item_id,
        type: 'pass_fail',
        order: 2,
        pass: null,
        text_result: null,
        numeric_result: null,
        na: true,
        content: '<p>Floor</p>',
        note: null,
        photos: [],
      },
    ]);
    const plain = await call(env, 'searchEvaluations', { quantity: 2 }, { cookie });
    expect(plain.body.evaluations[0].results).toBeUndefined();

    // No query per evaluation: a page of 20 costs what a page of 2 costs.
    const small = await countQueries(env, () =>
      call(env, 'searchEvaluationsWithResults', { quantity: 2 }, { cookie }),
    );
    const large = await countQueries(env, async () => {
      const page = await call(env, 'searchEvaluationsWithResults', { quantity: 20 }, { cookie });
      expect(page.body.evaluations).toHaveLength(20);
      expect(page.body.evaluations.every((e: { results: unknown[] }) => e.results.length === 3)).toBe(true);
    });
    expect(large).toBe(small);
  });

  it('refuses the searches without a session (401) and to a viewer (403)', async () => {
    const s = await setup(env);
    for (const name of ['searchEvaluations', 'searchEvaluationsWithResults'] as const) {
      expect(await call(env, name, {})).toMatchObject({ status: 401 });
      expect(await call(env, name, {}, { cookie: s.team.viewer.cookie })).toMatchObject({
        status: 403,
        body: { errMsg: 'Not authorized.' },
      });
    }
  });

  it('never shows another organisation’s evaluations, even to its owner in editing mode', async () => {
    const org = await buildOrg(env);
    const owner = await buildUser(env, org, { role: 'owner' });
    const cookie = await signIn(env, owner);
    const other = await setup(env);
    await buildEvaluation(env, other.team.org, { ...other, user: other.team.evaluator });
    const answer = await call(env, 'searchEvaluationsWithResults', { isEditing: true }, { cookie });
    expect(answer).toMatchObject({ status: 200, body: { evaluations: [] } });
  });
});
