import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { expect, it } from 'vitest';
import { nameKey } from '../../../common/validation.ts';
import type { ResultInput } from '../../../common/api/inputs.ts';
import { runMaintenance } from '../../jobs/maintenance.ts';
import {
  buildBoard,
  buildCard,
  buildEvaluation,
  buildFeedback,
  buildTeam,
  buildUser,
  signIn,
} from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { tenantState } from '../../test/state.ts';
import { messages } from '../shared/evaluations.ts';

const DAY = 24 * 60 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Everything the evaluation calls can change in one organisation, to check that nothing did. */
const stateOf = tenantState('evaluations', 'results', 'feedback');

/** A team with a five-item card (one of each kind, the second Pass/Fail allowing N/A) on a board. */
async function setup(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org, {
    items: [
      { type: 'instruction', content: '<p>Stop the line &amp; lock out.</p>' },
      { type: 'pass_fail', content: '<p>Guards in place</p>', na: false },
      { type: 'pass_fail', content: '<p>Floor is dry</p>', na: true },
      { type: 'text', content: '<p>Operator</p>' },
      { type: 'numeric', content: '<p>Temperature</p>' },
    ],
  });
  const [instruction, guards, floor, operator, temperature] = card.itemIds as [
    number,
    number,
    number,
    number,
    number,
  ];
  const board = await buildBoard(env, team.org, { cardIds: [card.id] });
  return { team, card, board, item: { instruction, guards, floor, operator, temperature } };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function start(env: TestEnv, s: Setup, cookie = s.team.evaluator.cookie): Promise<number> {
  const answer = await call(env, 'addEvaluation', { boardID: s.board.id, cardID: s.card.id }, { cookie });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

/** Answers for every item: Guards pass, Floor N/A, text and number given. */
function goodResults(s: Setup) {
  return [
    { item_id: s.item.guards, pass: true },
    { item_id: s.item.floor, na: true },
    { item_id: s.item.operator, text_result: 'Sam' },
    { item_id: s.item.temperature, numeric_result: 21.5 },
  ];
}

async function complete(
  env: TestEnv,
  s: Setup,
  evalID: number,
  results: ResultInput[] = goodResults(s),
  cookie = s.team.evaluator.cookie,
) {
  return call(env, 'addResults', { evalID, results }, { cookie });
}

describeEachDatabase('evaluations', (env) => {
  // ------------------------------------------------------------------------------------- add-evaluation

  it('starts an evaluation with snapshots of the board, card and user, not yet complete', async () => {
    const s = await setup(env);
    const answer = await call(
      env,
      'addEvaluation',
      { boardID: s.board.id, cardID: s.card.id },
      { cookie: s.team.evaluator.cookie },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: expect.any(Number) });
    const row = await env.db
      .selectFrom('evaluations')
      .selectAll()
      .where('id', '=', answer.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: answer.body.id,
      org_id: s.team.org.id,
      board_id: s.board.id,
      card_id: s.card.id,
      user_id: s.team.evaluator.id,
      anon_key_id: null,
      user_name: s.team.evaluator.email,
      board_name: s.board.name,
      card_name: s.card.name,
      user_name_key: s.team.evaluator.email.toLowerCase(),
      board_name_key: s.board.name.toLowerCase(),
      card_name_key: s.card.name.toLowerCase(),
      pass: null,
      has_feedback: 0,
      started_at: env.clock.now(),
      completed_at: null,
      completed_on_device: 0,
      device_completed_at: null,
      signed_name: null,
    });
  });

  it('refuses a card that is not on the board, or a deleted board or card, as not found, writing nothing', async () => {
    const s = await setup(env);
    const elsewhere = await buildCard(env, s.team.org);
    const before = await stateOf(env, s.team.org.id);
    const offBoard = await call(
      env,
      'addEvaluation',
      { boardID: s.board.id, cardID: elsewhere.id },
      { cookie: s.team.evaluator.cookie },
    );
    expect(offBoard).toMatchObject({ status: 404, body: { errMsg: messages.cardNotOnBoard } });

    await env.db
      .updateTable('cards')
      .set({ deleted_at: env.clock.now() })
      .where('id', '=', s.card.id)
      .execute();
    const deletedCard = await call(
      env,
      'addEvaluation',
      { boardID: s.board.id, cardID: s.card.id },
      { cookie: s.team.evaluator.cookie },
    );
    expect(deletedCard).toMatchObject({ status: 404, body: { errMsg: messages.cardNotOnBoard } });

    await env.db
      .updateTable('boards')
      .set({ deleted_at: env.clock.now() })
      .where('id', '=', s.board.id)
      .execute();
    const deletedBoard = await call(
      env,
      'addEvaluation',
      { boardID: s.board.id, cardID: s.card.id },
      { cookie: s.team.evaluator.cookie },
    );
    expect(deletedBoard).toMatchObject({ status: 404, body: { errMsg: messages.boardNotFound } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
  });

  it('answers another organisation’s board or card as not found, writing nothing anywhere', async () => {
    const s = await setup(env);
    const other = await setup(env);
    const before = [await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)];
    const theirBoard = await call(
      env,
      'addEvaluation',
      { boardID: other.board.id, cardID: other.card.id },
      { cookie: s.team.evaluator.cookie },
    );
    expect(theirBoard).toMatchObject({ status: 404, body: { errMsg: messages.boardNotFound } });
    const theirCard = await call(
      env,
      'addEvaluation',
      { boardID: s.board.id, cardID: other.card.id },
      { cookie: s.team.evaluator.cookie },
    );
    expect(theirCard).toMatchObject({ status: 404, body: { errMsg: messages.cardNotOnBoard } });
    expect([await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)]).toEqual(before);
  });

  it('refuses add-evaluation without a session (401), to a viewer (403) and bad input (400)', async () => {
    const s = await setup(env);
    const before = await stateOf(env, s.team.org.id);
    const body = { boardID: s.board.id, cardID: s.card.id };
    expect(await call(env, 'addEvaluation', body)).toMatchObject({
      status: 401,
      body: { errMsg: 'Please sign in to continue.' },
    });
    expect(await call(env, 'addEvaluation', body, { cookie: s.team.viewer.cookie })).toMatchObject({
      status: 403,
      body: { errMsg: 'Not authorized.' },
    });
    expect(
      await call(
        env,
        'addEvaluation',
        { boardID: 'one', cardID: s.card.id },
        { cookie: s.team.evaluator.cookie },
      ),
    ).toMatchObject({ status: 400, body: { errMsg: 'boardID must be a number.', errField: 'boardID' } });
    expect(
      await call(env, 'addEvaluation', { boardID: s.board.id }, { cookie: s.team.evaluator.cookie }),
    ).toMatchObject({ status: 400, body: { errMsg: 'cardID is required.', errField: 'cardID' } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
  });

  // ---------------------------------------------------------------------------------------- add-results

  it('completes an evaluation at the server’s time with one result per item, each with a snapshot', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    env.clock.advance(90_000);
    const answer = await call(
      env,
      'addResults',
      { evalID, completedTime: '2001-01-01T00:00:00.000Z', results: goodResults(s) },
      { cookie: s.team.evaluator.cookie },
    );
    expect(answer).toMatchObject({ status: 200, body: { complete: true } });
    const row = await env.db
      .selectFrom('evaluations')
      .selectAll()
      .where('id', '=', evalID)
      .executeTakeFirstOrThrow();
    // The client's completedTime is ignored: the server's clock decides.
    expect(row).toMatchObject({
      completed_at: env.clock.now(),
      started_at: env.clock.now() - 90_000,
      pass: 1,
    });
    const results = await env.db
      .selectFrom('results')
      .select([
        'org_id',
        'item_id',
        'item_type',
        'position',
        'content',
        'pass',
        'text_result',
        'numeric_result',
        'na',
      ])
      .where('evaluation_id', '=', evalID)
      .orderBy('position')
      .execute();
    expect(results).toEqual([
      {
        org_id: s.team.org.id,
        item_id: s.item.instruction,
        item_type: 'instruction',
        position: 0,
        content: '<p>Stop the line &amp; lock out.</p>',
        pass: null,
        text_result: null,
        numeric_result: null,
        na: 0,
      },
      {
        org_id: s.team.org.id,
        item_id: s.item.guards,
        item_type: 'pass_fail',
        position: 1,
        content: '<p>Guards in place</p>',
        pass: 1,
        text_result: null,
        numeric_result: null,
        na: 0,
      },
      {
        org_id: s.team.org.id,
        item_id: s.item.floor,
        item_type: 'pass_fail',
        position: 2,
        content: '<p>Floor is dry</p>',
        pass: null,
        text_result: null,
        numeric_result: null,
        na: 1,
      },
      {
        org_id: s.team.org.id,
        item_id: s.item.operator,
        item_type: 'text',
        position: 3,
        content: '<p>Operator</p>',
        pass: null,
        text_result: 'Sam',
        numeric_result: null,
        na: 0,
      },
      {
        org_id: s.team.org.id,
        item_id: s.item.temperature,
        item_type: 'numeric',
        position: 4,
        content: '<p>Temperature</p>',
        pass: null,
        text_result: null,
        numeric_result: 21.5,
        na: 0,
      },
    ]);
  });

  it('computes pass on the server: a failed Pass/Fail item fails it, N/A and text answers do not', async () => {
    const s = await setup(env);
    const cases: {
      results: { item_id: number; pass?: boolean; na?: boolean; text_result?: string }[];
      pass: 0 | 1;
    }[] = [
      {
        results: [
          { item_id: s.item.guards, pass: true },
          { item_id: s.item.floor, pass: true },
        ],
        pass: 1,
      },
      {
        results: [
          { item_id: s.item.guards, pass: true },
          { item_id: s.item.floor, na: true },
        ],
        pass: 1,
      },
      {
        results: [
          { item_id: s.item.guards, pass: false },
          { item_id: s.item.floor, na: true },
        ],
        pass: 0,
      },
      {
        results: [
          { item_id: s.item.guards, pass: true },
          { item_id: s.item.floor, pass: false },
        ],
        pass: 0,
      },
      {
        // N/A wins over a pass value sent with it: the item does not count.
        results: [
          { item_id: s.item.guards, pass: true },
          { item_id: s.item.floor, pass: false, na: true },
          { item_id: s.item.operator, text_result: 'fail' },
        ],
        pass: 1,
      },
    ];
    for (const { results, pass } of cases) {
      const evalID = await start(env, s);
      expect(await complete(env, s, evalID, results)).toMatchObject({
        status: 200,
        body: { complete: true },
      });
      const row = await env.db
        .selectFrom('evaluations')
        .select('pass')
        .where('id', '=', evalID)
        .executeTakeFirstOrThrow();
      expect({ results, pass: row.pass }).toEqual({ results, pass });
    }
  });

  it('refuses results naming an item of another card, or a deleted item, writing nothing', async () => {
    const s = await setup(env);
    const other = await buildCard(env, s.team.org);
    const evalID = await start(env, s);
    const before = await stateOf(env, s.team.org.id);
    const foreign = await complete(env, s, evalID, [
      ...goodResults(s),
      { item_id: other.itemIds[1]!, pass: true },
    ]);
    expect(foreign).toMatchObject({
      status: 400,
      body: { errMsg: messages.itemNotOnCard, errField: 'results' },
    });

    await env.db
      .updateTable('card_items')
      .set({ is_deleted: 1 })
      .where('id', '=', s.item.temperature)
      .execute();
    const deleted = await complete(env, s, evalID);
    expect(deleted).toMatchObject({ status: 400, body: { errMsg: messages.itemNotOnCard } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
  });

  it('refuses an unanswered Pass/Fail item, N/A where not allowed and an item answered twice', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    const before = await stateOf(env, s.team.org.id);
    const refusals: [unknown[], string][] = [
      [[{ item_id: s.item.floor, na: true }], messages.passFailUnanswered],
      [
        [
          { item_id: s.item.guards, pass: null },
          { item_id: s.item.floor, na: true },
        ],
        messages.passFailUnanswered,
      ],
      [
        [
          { item_id: s.item.guards, na: false },
          { item_id: s.item.floor, na: true },
        ],
        messages.passFailUnanswered,
      ],
      [
        [
          { item_id: s.item.guards, na: true },
          { item_id: s.item.floor, na: true },
        ],
        messages.naNotAllowed,
      ],
      [
        [
          { item_id: s.item.guards, pass: true },
          { item_id: s.item.guards, pass: false },
          { item_id: s.item.floor, na: true },
        ],
        messages.itemAnsweredTwice,
      ],
      [[], messages.passFailUnanswered],
    ];
    for (const [results, errMsg] of refusals) {
      const answer = await call(env, 'addResults', { evalID, results }, { cookie: s.team.evaluator.cookie });
      expect({ results, answer: { status: answer.status, body: answer.body } }).toEqual({
        results,
        answer: { status: 400, body: { errMsg, errField: 'results' } },
      });
    }
    const shape = await call(
      env,
      'addResults',
      { evalID, results: [{ item_id: s.item.guards, pass: 'yes' }] },
      { cookie: s.team.evaluator.cookie },
    );
    expect(shape).toMatchObject({ status: 400, body: { errMsg: 'pass must be a boolean.' } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
  });

  it('refuses to complete an evaluation twice (409), keeping the first results', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    expect((await complete(env, s, evalID)).status).toBe(200);
    const before = await stateOf(env, s.team.org.id);
    env.clock.advance(1_000);
    const again = await complete(env, s, evalID, [
      { item_id: s.item.guards, pass: false },
      { item_id: s.item.floor, pass: false },
    ]);
    expect(again).toMatchObject({ status: 409, body: { errMsg: messages.alreadyComplete } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
  });

  it('of two completions at once, one completes and the other is refused (409): results and counts once', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    const answers = await Promise.all(
      [1, 2].map((n) =>
        call(
          env,
          'addResults',
          { evalID, results: goodResults(s) },
          { cookie: s.team.evaluator.cookie, idempotencyKey: `racing-${evalID}-${n}` },
        ),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body).toEqual({ errMsg: messages.alreadyComplete });
    const rowsOf = (table: 'results' | 'item_totals_pending') =>
      env.db.selectFrom(table).select('evaluation_id').where('evaluation_id', '=', evalID).execute();
    expect(await rowsOf('results')).toHaveLength(5);
    expect(await rowsOf('item_totals_pending')).toHaveLength(1);
    const counted = await env.db
      .selectFrom('evaluation_counts')
      .select((eb) => eb.fn.sum<number>(eb('passed', '+', eb.ref('failed'))).as('n'))
      .where('org_id', '=', s.team.org.id)
      .where('board_id', '=', 0)
      .where('card_id', '=', 0)
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(1);
  });

  it('a completion that waits on a deletion of its evaluation is answered not found, and writes nothing', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    let deleted!: () => void;
    const deletionDone = new Promise<void>((resolve) => (deleted = resolve));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    // The deletion holds the evaluation's row until told to commit (on SQLite the completion waits for the
    // whole transaction instead, and finds the evaluation gone at its first read).
    const deletion = env.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('results').where('evaluation_id', '=', evalID).execute();
      await trx.deleteFrom('evaluations').where('id', '=', evalID).execute();
      deleted();
      await committing;
    });
    await deletionDone;
    const completion = complete(env, s, evalID);
    await new Promise((resolve) => setTimeout(resolve, 150));
    commit();
    await deletion;
    expect(await completion).toMatchObject({ status: 404, body: { errMsg: messages.evaluationNotFound } });
    expect(await stateOf(env, s.team.org.id)).toMatchObject({ evaluations: [], results: [] });
    const counted = await env.db
      .selectFrom('evaluation_counts')
      .select('slot')
      .where('org_id', '=', s.team.org.id)
      .execute();
    expect(counted).toEqual([]);
  });

  it('replays a retried add-results with the same Idempotency-Key instead of refusing it', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    const options = { cookie: s.team.evaluator.cookie, idempotencyKey: `results-${evalID}` };
    const body = { evalID, results: goodResults(s) };
    const first = await call(env, 'addResults', body, options);
    const retry = await call(env, 'addResults', body, options);
    expect(first).toMatchObject({ status: 200, body: { complete: true } });
    expect(retry).toMatchObject({ status: 200, body: { complete: true } });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const results = await env.db
      .selectFrom('results')
      .select('id')
      .where('evaluation_id', '=', evalID)
      .execute();
    expect(results).toHaveLength(5);
  });

  it('lets only the evaluation’s evaluator complete it, not even an administrator (issue 10)', async () => {
    const s = await setup(env);
    const colleague = await buildUser(env, s.team.org, { role: 'evaluator' });
    const colleagueCookie = await signIn(env, colleague);
    const evalID = await start(env, s);
    const before = await stateOf(env, s.team.org.id);
    // Another member's unfinished evaluation is hidden like every unfinished one.
    const byColleague = await complete(env, s, evalID, goodResults(s), colleagueCookie);
    expect(byColleague).toMatchObject({ status: 404, body: { errMsg: messages.evaluationNotFound } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
    // DECISIONS.md: add-results (own evaluation); an administrator may delete it, not finish it.
    const byAdmin = await complete(env, s, evalID, goodResults(s), s.team.admin.cookie);
    expect(byAdmin).toMatchObject({ status: 404, body: { errMsg: messages.evaluationNotFound } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
    const byEvaluator = await complete(env, s, evalID, goodResults(s));
    expect(byEvaluator).toMatchObject({ status: 200, body: { complete: true } });
    // Once complete it is visible to everyone, so a colleague is told it is not theirs.
    const after = await complete(env, s, evalID, goodResults(s), colleagueCookie);
    expect(after).toMatchObject({ status: 403, body: { errMsg: messages.notYourEvaluation } });
  });

  it('answers another organisation’s evaluation as not found on add-results, changing nothing', async () => {
    const s = await setup(env);
    const other = await setup(env);
    const theirs = await start(env, other, other.team.evaluator.cookie);
    const before = await stateOf(env, other.team.org.id);
    const answer = await complete(env, s, theirs, goodResults(other), s.team.owner.cookie);
    expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.evaluationNotFound } });
    expect(await stateOf(env, other.team.org.id)).toEqual(before);
  });

  it('refuses add-results without a session (401) and to a viewer (403)', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    const before = await stateOf(env, s.team.org.id);
    expect(await call(env, 'addResults', { evalID, results: goodResults(s) })).toMatchObject({ status: 401 });
    expect(
      await call(env, 'addResults', { evalID, results: goodResults(s) }, { cookie: s.team.viewer.cookie }),
    ).toMatchObject({ status: 403, body: { errMsg: 'Not authorized.' } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
  });

  // ----------------------------------------------------------------------------------- get-evaluation

  it('answers a completed evaluation with its results to any member; history survives card edits', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    await complete(env, s, evalID, [
      { item_id: s.item.guards, pass: false },
      { item_id: s.item.floor, na: true },
      { item_id: s.item.operator, text_result: 'Sam' },
    ]);
    await env.db
      .updateTable('card_items')
      .set({ content: '<p>Changed later</p>' })
      .where('card_id', '=', s.card.id)
      .execute();
    await env.db.updateTable('cards').set({ name: 'Renamed later' }).where('id', '=', s.card.id).execute();
    const expected = {
      ID: evalID,
      boardID: s.board.id,
      boardName: s.board.name,
      cardID: s.card.id,
      cardName: s.card.name,
      userName: s.team.evaluator.email,
      pass: false,
      hasFeedback: false,
      completedTime: iso(env.clock.now()),
      results: [
        {
          item_id: s.item.instruction,
          type: 'instruction',
          order: 0,
          pass: null,
          text_result: null,
          numeric_result: null,
          na: false,
          content: '<p>Stop the line &amp; lock out.</p>',
          note: null,
          photos: [],
        },
        {
          item_id: s.item.guards,
          type: 'pass_fail',
          order: 1,
          pass: false,
          text_result: null,
          numeric_result: null,
          na: false,
          content: '<p>Guards in place</p>',
          note: null,
          photos: [],
        },
        {
          item_id: s.item.floor,
          type: 'pass_fail',
          order: 2,
          pass: null,
          text_result: null,
          numeric_result: null,
          na: true,
          content: '<p>Floor is dry</p>',
          note: null,
          photos: [],
        },
        {
          item_id: s.item.operator,
          type: 'text',
          order: 3,
          pass: null,
          text_result: 'Sam',
          numeric_result: null,
          na: false,
          content: '<p>Operator</p>',
          note: null,
          photos: [],
        },
        {
          item_id: s.item.temperature,
          type: 'numeric',
          order: 4,
          pass: null,
          text_result: null,
          numeric_result: null,
          na: false,
          content: '<p>Temperature</p>',
          note: null,
          photos: [],
        },
      ],
    };
    const byViewer = await call(env, 'getEvaluation', { evalID }, { cookie: s.team.viewer.cookie });
    expect(byViewer).toMatchObject({ status: 200, body: { evaluation: { ...expected, isUsers: false } } });
    expect(byViewer.body.evaluation).toEqual({ ...expected, isUsers: false });
    const byEvaluator = await call(env, 'getEvaluation', { evalID }, { cookie: s.team.evaluator.cookie });
    expect(byEvaluator.body.evaluation).toEqual({ ...expected, isUsers: true });
  });

  it('hides an unfinished evaluation, even from its evaluator, and another organisation’s', async () => {
    const s = await setup(env);
    const other = await setup(env);
    const unfinished = await start(env, s);
    const theirs = await start(env, other, other.team.evaluator.cookie);
    await complete(env, other, theirs, goodResults(other), other.team.evaluator.cookie);
    for (const evalID of [unfinished, theirs]) {
      const answer = await call(env, 'getEvaluation', { evalID }, { cookie: s.team.evaluator.cookie });
      expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.evaluationNotFound } });
    }
    expect(await call(env, 'getEvaluation', { evalID: unfinished })).toMatchObject({ status: 401 });
    expect(await call(env, 'getEvaluation', { evalID: 0 }, { cookie: s.team.viewer.cookie })).toMatchObject({
      status: 400,
      body: { errMsg: 'evalID must be greater than 0.' },
    });
  });

  // ------------------------------------------------------------------------------------ delete-evaluation

  it('deletes the evaluator’s own evaluation with its results and feedback', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    await complete(env, s, evalID);
    await buildFeedback(env, s.team.org, {
      board: s.board,
      evaluation: { id: evalID, card: s.card },
      user: s.team.viewer,
    });
    const boardFeedback = await buildFeedback(env, s.team.org, { board: s.board, user: s.team.evaluator });
    const answer = await call(env, 'deleteEvaluation', { evalID }, { cookie: s.team.evaluator.cookie });
    expect(answer).toMatchObject({ status: 200, body: { evalID } });
    const state = await stateOf(env, s.team.org.id);
    expect(state.evaluations).toEqual([]);
    expect(state.results).toEqual([]);
    // Board-level feedback is not the evaluation's.
    expect(state.feedback.map((f) => f.id)).toEqual([boardFeedback.id]);
  });

  it('lets an evaluator cancel their own unfinished evaluation', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    const answer = await call(env, 'deleteEvaluation', { evalID }, { cookie: s.team.evaluator.cookie });
    expect(answer).toMatchObject({ status: 200, body: { evalID } });
    expect((await stateOf(env, s.team.org.id)).evaluations).toEqual([]);
  });

  it('refuses an evaluator deleting another’s evaluation (403); an administrator may', async () => {
    const s = await setup(env);
    const evalID = await start(env, s);
    await complete(env, s, evalID);
    const colleague = await buildUser(env, s.team.org, { role: 'evaluator' });
    const before = await stateOf(env, s.team.org.id);
    const refused = await call(env, 'deleteEvaluation', { evalID }, { cookie: await signIn(env, colleague) });
    expect(refused).toMatchObject({ status: 403, body: { errMsg: messages.notYourEvaluation } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
    const byAdmin = await call(env, 'deleteEvaluation', { evalID }, { cookie: s.team.admin.cookie });
    expect(byAdmin).toMatchObject({ status: 200, body: { evalID } });
    expect((await stateOf(env, s.team.org.id)).evaluations).toEqual([]);
  });

  it('refuses delete-evaluation across organisations (404), without a session (401), to a viewer (403)', async () => {
    const s = await setup(env);
    const other = await setup(env);
    const theirs = await start(env, other, other.team.evaluator.cookie);
    await complete(env, other, theirs, goodResults(other), other.team.evaluator.cookie);
    const mine = await start(env, s);
    await complete(env, s, mine);
    const before = [await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)];
    expect(
      await call(env, 'deleteEvaluation', { evalID: theirs }, { cookie: s.team.owner.cookie }),
    ).toMatchObject({
      status: 404,
      body: { errMsg: messages.evaluationNotFound },
    });
    expect(await call(env, 'deleteEvaluation', { evalID: mine })).toMatchObject({ status: 401 });
    expect(
      await call(env, 'deleteEvaluation', { evalID: mine }, { cookie: s.team.viewer.cookie }),
    ).toMatchObject({
      status: 403,
    });
    expect([await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)]).toEqual(before);
  });

  // ----------------------------------------------------------------------------------- get-evaluations

  it('answers a board’s completed evaluations since the start, oldest first, by everyone', async () => {
    const s = await setup(env);
    const now = env.clock.now();
    const second = await buildCard(env, s.team.org);
    await env.db
      .insertInto('board_cards')
      .values({ org_id: s.team.org.id, board_id: s.board.id, card_id: second.id, created_at: now })
      .execute();
    const otherBoard = await buildBoard(env, s.team.org, { cardIds: [s.card.id] });
    const by = (
      user: { id: number; email: string } | null,
      card: { id: number; name: string },
      at: number,
      pass = true,
    ) => buildEvaluation(env, s.team.org, { board: s.board, card, user, completedAt: at, pass });
    const a = await by(s.team.evaluator, s.card, now - 2 * DAY, false);
    const b = await by(s.team.admin, second, now - 5 * DAY);
    const c = await by(null, s.card, now - 1 * DAY);
    const d = await by(s.team.evaluator, second, now - 2 * DAY); // same time as a: id breaks the tie
    await by(s.team.evaluator, s.card, now - 10 * DAY); // before the start
    await buildEvaluation(env, s.team.org, {
      board: s.board,
      card: s.card,
      user: s.team.evaluator,
      completedAt: null,
    });
    await buildEvaluation(env, s.team.org, { board: otherBoard, card: s.card, user: s.team.evaluator });
    // Enough older evaluations of both cards that "Last 3" needs nothing from before the window.
    for (const card of [s.card, second]) await by(s.team.admin, card, now - 6 * DAY);

    const answer = await call(
      env,
      'getEvaluations',
      { boardID: s.board.id, startDateTime: iso(now - 7 * DAY) },
      { cookie: s.team.evaluator.cookie },
    );
    expect(answer.status).toBe(200);
    const ids = answer.body.evaluations.map((e: { ID: number }) => e.ID);
    expect(ids.slice(2)).toEqual([b.id, a.id, d.id, c.id]);
    expect(answer.body.evaluations[3]).toEqual({
      ID: a.id,
      boardID: s.board.id,
      boardName: s.board.name,
      cardID: s.card.id,
      cardName: s.card.name,
      userName: s.team.evaluator.email,
      pass: false,
      hasFeedback: false,
      completedTime: iso(now - 2 * DAY),
      isUsers: true,
    });
    expect(answer.body.evaluations[5]).toMatchObject({ ID: c.id, userName: 'Anonymous', isUsers: false });
  });

  it('reaches at most 31 days back, but gives each card on the board its last 3 evaluations', async () => {
    const s = await setup(env);
    const now = env.clock.now();
    const quiet = await buildCard(env, s.team.org);
    await env.db
      .insertInto('board_cards')
      .values({ org_id: s.team.org.id, board_id: s.board.id, card_id: quiet.id, created_at: now })
      .execute();
    const eval_ = (card: { id: number; name: string }, daysAgo: number) =>
      buildEvaluation(env, s.team.org, {
        board: s.board,
        card,
        user: s.team.admin,
        completedAt: now - daysAgo * DAY,
      });
    // The busy card: three in the window, one older (not needed for its last 3).
    const busy = [
      await eval_(s.card, 40),
      await eval_(s.card, 3),
      await eval_(s.card, 2),
      await eval_(s.card, 1),
    ];
    // The quiet card: one in the window, four older; its two newest older ones complete its last 3.
    const q = [
      await eval_(quiet, 200),
      await eval_(quiet, 100),
      await eval_(quiet, 50),
      await eval_(quiet, 45),
      await eval_(quiet, 4),
    ];
    // An unfinished one is never among them.
    await buildEvaluation(env, s.team.org, {
      board: s.board,
      card: quiet,
      user: s.team.admin,
      completedAt: null,
    });

    const answer = await call(
      env,
      'getEvaluations',
      { boardID: s.board.id, startDateTime: iso(now - 60 * DAY) },
      { cookie: s.team.viewer.cookie },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.evaluations.map((e: { ID: number }) => e.ID)).toEqual([
      q[2]!.id,
      q[3]!.id,
      q[4]!.id,
      busy[1]!.id,
      busy[2]!.id,
      busy[3]!.id,
    ]);
  });

  /** Completed evaluations inserted in bulk (a busy board), as the services would store them. */
  async function seedBoardEvaluations(
    s: Awaited<ReturnType<typeof setup>>,
    board: { id: number; name: string },
    rows: { card: { id: number; name: string }; at: number; pass: boolean }[],
  ) {
    const user = s.team.evaluator;
    for (let i = 0; i < rows.length; i += 200) {
      await env.db
        .insertInto('evaluations')
        .values(
          rows.slice(i, i + 200).map(({ card, at, pass }) => ({
            org_id: s.team.org.id,
            board_id: board.id,
            card_id: card.id,
            user_id: user.id,
            anon_key_id: null,
            user_name: user.email,
            board_name: board.name,
            card_name: card.name,
            user_name_key: nameKey(user.email),
            board_name_key: nameKey(board.name),
            card_name_key: nameKey(card.name),
            pass: pass ? 1 : 0,
            has_feedback: 0,
            started_at: at - 60_000,
            completed_at: at,
          })),
        )
        .execute();
    }
  }

  type Listed = { ID: number; cardID: number; completedTime: string; pass: boolean };
  type MoreDay = { cardID: number; date: string; pass: number; fail: number };

  it('bounds a busy board’s answer: its size does not grow with the evaluations per day', async () => {
    const s = await setup(env);
    const now = env.clock.now();
    const cards = [s.card, await buildCard(env, s.team.org), await buildCard(env, s.team.org)];
    const boardWith = async (perDay: number) => {
      const board = await buildBoard(env, s.team.org, { cardIds: cards.map((c) => c.id) });
      const rows = [];
      for (let day = 0; day < 40; day++)
        for (const card of cards)
          for (let n = 0; n < perDay; n++)
            rows.push({ card, at: now - day * DAY - n * 7 * 60_000 - 1, pass: (day + n) % 5 !== 0 });
      await seedBoardEvaluations(s, board, rows);
      const answer = await call(
        env,
        'getEvaluations',
        { boardID: board.id, startDateTime: iso(now - 40 * DAY), timeZone: 'Europe/Berlin' },
        { cookie: s.team.viewer.cookie },
      );
      expect(answer.status).toBe(200);
      return answer;
    };
    const quiet = await boardWith(4);
    const busy = await boardWith(40);
    // 3 cards x at most 32 local days in the 31-day window x 3 squares a day.
    expect(busy.body.evaluations.length).toBeLessThanOrEqual(3 * 32 * 3);
    expect(busy.body.evaluations.length).toBe(quiet.body.evaluations.length);
    expect(busy.body.moreDays.length).toBe(quiet.body.moreDays.length);
    const size = (answer: { body: unknown }) => JSON.stringify(answer.body).length;
    expect(size(busy)).toBeLessThan(size(quiet) * 1.05);
    expect(size(busy)).toBeLessThan(150_000);
    // Every day listed in part carries its totals: 40 a day here.
    for (const day of busy.body.moreDays as MoreDay[]) {
      if (day.date !== busy.body.moreDays[0].date) expect(day.pass + day.fail).toBe(40);
    }
  });

  it('lists per card and local day that day’s last 3 with the totals, so the three views draw what all rows draw', async () => {
    const s = await setup(env);
    const now = env.clock.now();
    const cards = [s.card, await buildCard(env, s.team.org), await buildCard(env, s.team.org)];
    const board = await buildBoard(env, s.team.org, { cardIds: cards.map((c) => c.id) });
    // Deterministic "random" times over 45 days, dense around local midnights in Auckland.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const rows = [];
    for (let i = 0; i < 600; i++) {
      rows.push({ card: cards[i % 3]!, at: now - Math.floor(next() * 45 * DAY), pass: next() > 0.3 });
    }
    // A card whose last 3 all come from before the window.
    const quiet = await buildCard(env, s.team.org);
    await env.db
      .insertInto('board_cards')
      .values({ org_id: s.team.org.id, board_id: board.id, card_id: quiet.id, created_at: now })
      .execute();
    for (const days of [40, 41, 42, 43])
      rows.push({ card: quiet, at: now - days * DAY, pass: days % 2 === 0 });
    await seedBoardEvaluations(s, board, rows);
    const all = await env.db
      .selectFrom('evaluations')
      .select(['id', 'card_id', 'completed_at', 'pass'])
      .where('org_id', '=', s.team.org.id)
      .where('board_id', '=', board.id)
      .orderBy('completed_at')
      .orderBy('id')
      .execute();

    for (const zone of ['Pacific/Auckland', 'America/New_York', undefined]) {
      const startDateTime = iso(now - 31 * DAY);
      const answer = await call(
        env,
        'getEvaluations',
        { boardID: board.id, startDateTime, ...(zone ? { timeZone: zone } : {}) },
        { cookie: s.team.evaluator.cookie },
      );
      expect(answer.status).toBe(200);
      const listed = answer.body.evaluations as Listed[];
      const more = answer.body.moreDays as MoreDay[];
      const dateOf = (ms: number) => format(new TZDate(ms, zone ?? 'UTC'), 'yyyy-MM-dd');

      // The calendars: per card and local day in the window, the day's last 3, and its totals when more.
      const expectedDays = new Map<string, typeof all>();
      for (const row of all.filter((r) => r.completed_at! >= Date.parse(startDateTime))) {
        const key = `${row.card_id} ${dateOf(row.completed_at!)}`;
        expectedDays.set(key, [...(expectedDays.get(key) ?? []), row]);
      }
      const listedDays = new Map<string, number[]>();
      for (const e of listed.filter((e) => Date.parse(e.completedTime) >= Date.parse(startDateTime))) {
        const key = `${e.cardID} ${dateOf(Date.parse(e.completedTime))}`;
        listedDays.set(key, [...(listedDays.get(key) ?? []), e.ID]);
      }
      expect([...listedDays.keys()].sort()).toEqual([...expectedDays.keys()].sort());
      for (const [key, dayRows] of expectedDays) {
        expect(listedDays.get(key), key).toEqual(dayRows.slice(-3).map((r) => r.id));
      }
      const expectedMore = [...expectedDays]
        .filter(([, dayRows]) => dayRows.length > 3)
        .map(([key, dayRows]) => ({
          cardID: Number(key.split(' ')[0]),
          date: key.split(' ')[1]!,
          pass: dayRows.filter((r) => r.pass === 1).length,
          fail: dayRows.filter((r) => r.pass === 0).length,
        }));
      const byKey = (a: MoreDay, b: MoreDay) =>
        `${a.cardID} ${a.date}`.localeCompare(`${b.cardID} ${b.date}`);
      expect(expectedMore.length).toBeGreaterThan(0);
      expect([...more].sort(byKey)).toEqual(expectedMore.sort(byKey));

      // Last 3: each card's three newest, however old.
      for (const card of [...cards, quiet]) {
        const mine = listed.filter((e) => e.cardID === card.id).map((e) => e.ID);
        const expected = all.filter((r) => r.card_id === card.id).map((r) => r.id);
        expect(mine.slice(-3)).toEqual(expected.slice(-3));
      }
      // Oldest first, without duplicates.
      const times = listed.map((e) => Date.parse(e.completedTime));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(listed.map((e) => e.ID)).size).toBe(listed.length);
    }
  });

  it('refuses a time zone it does not know on get-evaluations', async () => {
    const s = await setup(env);
    for (const timeZone of ['Mars/Olympus', '+05:30', '']) {
      expect(
        await call(
          env,
          'getEvaluations',
          { boardID: s.board.id, startDateTime: iso(env.clock.now() - DAY), timeZone },
          { cookie: s.team.viewer.cookie },
        ),
      ).toMatchObject({ status: 400, body: { errField: 'timeZone' } });
    }
    expect(
      await call(
        env,
        'getEvaluations',
        { boardID: s.board.id, startDateTime: iso(env.clock.now() - DAY), timeZone: 'Mars/Olympus' },
        { cookie: s.team.viewer.cookie },
      ),
    ).toMatchObject({ status: 400, body: { errMsg: messages.unknownTimeZone, errField: 'timeZone' } });
  });

  it('answers get-evaluations for another organisation’s or a deleted board as not found', async () => {
    const s = await setup(env);
    const other = await setup(env);
    const startDateTime = iso(env.clock.now() - DAY);
    expect(
      await call(
        env,
        'getEvaluations',
        { boardID: other.board.id, startDateTime },
        { cookie: s.team.owner.cookie },
      ),
    ).toMatchObject({ status: 404, body: { errMsg: messages.boardNotFound } });
    await env.db
      .updateTable('boards')
      .set({ deleted_at: env.clock.now() })
      .where('id', '=', s.board.id)
      .execute();
    expect(
      await call(
        env,
        'getEvaluations',
        { boardID: s.board.id, startDateTime },
        { cookie: s.team.owner.cookie },
      ),
    ).toMatchObject({ status: 404, body: { errMsg: messages.boardNotFound } });
    expect(await call(env, 'getEvaluations', { boardID: s.board.id, startDateTime })).toMatchObject({
      status: 401,
    });
    expect(
      await call(
        env,
        'getEvaluations',
        { boardID: s.board.id, startDateTime: 'yesterday' },
        { cookie: s.team.viewer.cookie },
      ),
    ).toMatchObject({ status: 400, body: { errMsg: 'startDateTime is not a valid date and time.' } });
  });
});

describeEachDatabase('unfinished evaluations', (env) => {
  it('purges an evaluation never completed after 24 hours, keeping completed ones', async () => {
    const s = await setup(env);
    const unfinished = await start(env, s);
    const done = await start(env, s);
    expect((await complete(env, s, done)).status).toBe(200);
    env.clock.advance(24 * 60 * 60_000 - 1);
    await runMaintenance(env.services);
    const ids = async () =>
      (
        await env.db
          .selectFrom('evaluations')
          .select('id')
          .where('org_id', '=', s.team.org.id)
          .orderBy('id')
          .execute()
      ).map((r) => r.id);
    expect(await ids()).toEqual([unfinished, done]);
    env.clock.advance(1);
    await runMaintenance(env.services);
    expect(await ids()).toEqual([done]);
    expect(
      await env.db.selectFrom('results').select('id').where('evaluation_id', '=', done).execute(),
    ).toHaveLength(5);
  });
});
