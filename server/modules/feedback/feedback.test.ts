import { expect, it } from 'vitest';
import { FEEDBACK_MAX } from '../../../common/constants.ts';
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
import { messages } from '../shared/feedback.ts';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const LENGTH_MESSAGE = `Feedback must be between 1 and ${FEEDBACK_MAX} characters long.`;

const stateOf = tenantState('evaluations', 'feedback');

/** A team, a card on a board, and one completed evaluation of it by the evaluator. */
async function setup(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org, { name: 'Press check' });
  const board = await buildBoard(env, team.org, { name: 'Line One', cardIds: [card.id] });
  const evaluation = await buildEvaluation(env, team.org, {
    board,
    card,
    user: team.evaluator,
    completedAt: env.clock.now() - MINUTE,
  });
  return { team, card, board, evaluation: { id: evaluation.id, card } };
}

type Setup = Awaited<ReturnType<typeof setup>>;

const hasFeedback = async (env: TestEnv, evalId: number) =>
  (
    await env.db
      .selectFrom('evaluations')
      .select('has_feedback')
      .where('id', '=', evalId)
      .executeTakeFirstOrThrow()
  ).has_feedback;

async function feedbackRow(env: TestEnv, id: number) {
  return env.db.selectFrom('feedback').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describeEachDatabase('feedback', (env) => {
  // --------------------------------------------------------------------------------------- add-feedback

  it('adds trimmed feedback on an evaluation, with its snapshots, and marks the evaluation', async () => {
    const s = await setup(env);
    const answer = await call(
      env,
      'addFeedback',
      { evaluationID: s.evaluation.id, boardID: s.board.id, content: '  Guard was loose.  ' },
      { cookie: s.team.admin.cookie },
    );
    expect(answer).toMatchObject({ status: 200, body: { id: expect.any(Number) } });
    expect(await feedbackRow(env, answer.body.id)).toEqual({
      id: answer.body.id,
      org_id: s.team.org.id,
      evaluation_id: s.evaluation.id,
      board_id: s.board.id,
      card_id: s.card.id,
      user_id: s.team.admin.id,
      anon_key_id: null,
      user_name: s.team.admin.email,
      board_name: 'Line One',
      card_name: 'Press check',
      user_name_key: s.team.admin.email.toLowerCase(),
      board_name_key: 'line one',
      card_name_key: 'press check',
      content: 'Guard was loose.',
      created_at: env.clock.now(),
      updated_at: env.clock.now(),
    });
    expect(await hasFeedback(env, s.evaluation.id)).toBe(1);
  });

  it('adds board-level feedback when evaluationID is null or absent', async () => {
    const s = await setup(env);
    for (const body of [
      { evaluationID: null, boardID: s.board.id, content: 'The light is out.' },
      { boardID: s.board.id, content: 'The light is out.' },
    ]) {
      const answer = await call(env, 'addFeedback', body, { cookie: s.team.evaluator.cookie });
      expect(answer.status).toBe(200);
      expect(await feedbackRow(env, answer.body.id)).toMatchObject({
        evaluation_id: null,
        board_id: s.board.id,
        card_id: null,
        card_name: null,
        card_name_key: '',
        board_name: 'Line One',
        user_name: s.team.evaluator.email,
        content: 'The light is out.',
      });
    }
    expect(await hasFeedback(env, s.evaluation.id)).toBe(0);
  });

  it('refuses empty or over-long feedback with the rule’s message, writing nothing', async () => {
    const s = await setup(env);
    const before = await stateOf(env, s.team.org.id);
    for (const content of ['', '   \n ', 'x'.repeat(FEEDBACK_MAX + 1)]) {
      const answer = await call(
        env,
        'addFeedback',
        { evaluationID: s.evaluation.id, boardID: s.board.id, content },
        { cookie: s.team.evaluator.cookie },
      );
      expect(answer).toMatchObject({ status: 400, body: { errMsg: LENGTH_MESSAGE, errField: 'content' } });
    }
    const longest = await call(
      env,
      'addFeedback',
      { boardID: s.board.id, content: ` ${'x'.repeat(FEEDBACK_MAX)} ` },
      { cookie: s.team.evaluator.cookie },
    );
    expect(longest.status).toBe(200);
    expect((await stateOf(env, s.team.org.id)).feedback).toHaveLength(before.feedback.length + 1);
  });

  it('answers as not found feedback on another board’s, an unfinished or another organisation’s evaluation', async () => {
    const s = await setup(env);
    const other = await setup(env);
    const otherBoard = await buildBoard(env, s.team.org, { cardIds: [s.card.id] });
    const unfinished = await buildEvaluation(env, s.team.org, {
      board: s.board,
      card: s.card,
      user: s.team.evaluator,
      completedAt: null,
    });
    const deletedBoard = await buildBoard(env, s.team.org);
    await env.db
      .updateTable('boards')
      .set({ deleted_at: env.clock.now() })
      .where('id', '=', deletedBoard.id)
      .execute();
    const before = [await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)];
    const cases: [Record<string, unknown>, string][] = [
      [{ evaluationID: s.evaluation.id, boardID: otherBoard.id }, messages.evaluationNotFound],
      [{ evaluationID: unfinished.id, boardID: s.board.id }, messages.evaluationNotFound],
      [{ evaluationID: other.evaluation.id, boardID: other.board.id }, messages.evaluationNotFound],
      [{ evaluationID: other.evaluation.id, boardID: s.board.id }, messages.evaluationNotFound],
      [{ boardID: other.board.id }, messages.boardNotFound],
      [{ boardID: deletedBoard.id }, messages.boardNotFound],
    ];
    for (const [body, errMsg] of cases) {
      const answer = await call(
        env,
        'addFeedback',
        { ...body, content: 'Hello' },
        { cookie: s.team.owner.cookie },
      );
      expect({ body, status: answer.status, answer: answer.body }).toEqual({
        body,
        status: 404,
        answer: { errMsg },
      });
    }
    expect([await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)]).toEqual(before);
  });

  it('refuses add-feedback without a session (401) and to a viewer (403)', async () => {
    const s = await setup(env);
    const before = await stateOf(env, s.team.org.id);
    const body = { evaluationID: s.evaluation.id, boardID: s.board.id, content: 'Hello' };
    expect(await call(env, 'addFeedback', body)).toMatchObject({ status: 401 });
    expect(await call(env, 'addFeedback', body, { cookie: s.team.viewer.cookie })).toMatchObject({
      status: 403,
      body: { errMsg: 'Not authorized.' },
    });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
  });

  // -------------------------------------------------------------------------------------- edit-feedback

  it('lets an evaluator edit their own feedback, answering it presented', async () => {
    const s = await setup(env);
    const mine = await buildFeedback(env, s.team.org, {
      ...s,
      user: s.team.evaluator,
      createdAt: env.clock.now() - MINUTE,
    });
    env.clock.advance(5_000);
    const answer = await call(
      env,
      'editFeedback',
      { feedbackID: mine.id, evaluationID: s.evaluation.id, content: ' Fixed now. ' },
      { cookie: s.team.evaluator.cookie },
    );
    expect(answer).toMatchObject({ status: 200 });
    expect(answer.body.feedback).toEqual({
      id: mine.id,
      evalID: s.evaluation.id,
      cardID: s.card.id,
      cardName: 'Press check',
      boardID: s.board.id,
      boardName: 'Line One',
      userName: s.team.evaluator.email,
      createdTime: iso(env.clock.now() - 5_000 - MINUTE),
      content: 'Fixed now.',
      isUsers: true,
    });
    expect(await feedbackRow(env, mine.id)).toMatchObject({
      content: 'Fixed now.',
      updated_at: env.clock.now(),
    });
  });

  it('refuses an evaluator editing another’s feedback even when it says isAdmin (403); an admin may', async () => {
    const s = await setup(env);
    const theirs = await buildFeedback(env, s.team.org, { ...s, user: s.team.viewer, content: 'Original' });
    const before = await stateOf(env, s.team.org.id);
    const refused = await call(
      env,
      'editFeedback',
      { isAdmin: true, feedbackID: theirs.id, evaluationID: s.evaluation.id, content: 'Overwritten' },
      { cookie: s.team.evaluator.cookie },
    );
    expect(refused).toMatchObject({ status: 403, body: { errMsg: messages.notYourFeedback } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);

    const byAdmin = await call(
      env,
      'editFeedback',
      { isAdmin: false, feedbackID: theirs.id, content: 'Edited by admin' },
      { cookie: s.team.admin.cookie },
    );
    expect(byAdmin).toMatchObject({
      status: 200,
      body: {
        feedback: {
          id: theirs.id,
          content: 'Edited by admin',
          userName: s.team.viewer.email,
          isUsers: false,
        },
      },
    });
  });

  it('answers edit-feedback on another organisation’s feedback, or naming another evaluation, as not found', async () => {
    const s = await setup(env);
    const other = await setup(env);
    const theirs = await buildFeedback(env, other.team.org, { ...other, user: other.team.evaluator });
    const mine = await buildFeedback(env, s.team.org, { ...s, user: s.team.evaluator });
    const before = [await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)];
    for (const body of [
      { feedbackID: theirs.id, content: 'x' },
      { feedbackID: mine.id, evaluationID: other.evaluation.id, content: 'x' },
    ]) {
      const answer = await call(env, 'editFeedback', body, { cookie: s.team.owner.cookie });
      expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.feedbackNotFound } });
    }
    expect(
      await call(
        env,
        'editFeedback',
        { feedbackID: mine.id, content: ' ' },
        { cookie: s.team.evaluator.cookie },
      ),
    ).toMatchObject({ status: 400, body: { errMsg: LENGTH_MESSAGE } });
    expect(await call(env, 'editFeedback', { feedbackID: mine.id, content: 'x' })).toMatchObject({
      status: 401,
    });
    expect(
      await call(
        env,
        'editFeedback',
        { feedbackID: mine.id, content: 'x' },
        { cookie: s.team.viewer.cookie },
      ),
    ).toMatchObject({ status: 403 });
    expect([await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)]).toEqual(before);
  });

  // ------------------------------------------------------------------------------------ delete-feedback

  it('deletes own feedback; the evaluation keeps its mark until its last feedback goes', async () => {
    const s = await setup(env);
    const first = await buildFeedback(env, s.team.org, { ...s, user: s.team.evaluator });
    const second = await buildFeedback(env, s.team.org, { ...s, user: s.team.evaluator });
    const cookie = s.team.evaluator.cookie;
    const one = await call(
      env,
      'deleteFeedback',
      { isAdmin: false, feedbackID: first.id, evaluationID: s.evaluation.id, boardID: s.board.id },
      { cookie },
    );
    expect(one).toMatchObject({ status: 200, body: { id: first.id } });
    expect(await hasFeedback(env, s.evaluation.id)).toBe(1);
    const two = await call(env, 'deleteFeedback', { feedbackID: second.id }, { cookie });
    expect(two).toMatchObject({ status: 200, body: { id: second.id } });
    expect(await hasFeedback(env, s.evaluation.id)).toBe(0);
    expect((await stateOf(env, s.team.org.id)).feedback).toEqual([]);
  });

  it('refuses an evaluator deleting another’s feedback even when it says isAdmin (403); an admin may', async () => {
    const s = await setup(env);
    const colleague = await buildUser(env, s.team.org, { role: 'evaluator' });
    const theirs = await buildFeedback(env, s.team.org, { ...s, user: colleague });
    const before = await stateOf(env, s.team.org.id);
    const refused = await call(
      env,
      'deleteFeedback',
      { isAdmin: true, feedbackID: theirs.id, evaluationID: s.evaluation.id },
      { cookie: s.team.evaluator.cookie },
    );
    expect(refused).toMatchObject({ status: 403, body: { errMsg: messages.notYourFeedback } });
    expect(await stateOf(env, s.team.org.id)).toEqual(before);
    const byAdmin = await call(
      env,
      'deleteFeedback',
      { feedbackID: theirs.id },
      { cookie: s.team.admin.cookie },
    );
    expect(byAdmin).toMatchObject({ status: 200, body: { id: theirs.id } });
    expect(await hasFeedback(env, s.evaluation.id)).toBe(0);
  });

  it('answers delete-feedback across organisations or boards as not found, and refuses no session and viewers', async () => {
    const s = await setup(env);
    const other = await setup(env);
    const theirs = await buildFeedback(env, other.team.org, { ...other, user: other.team.evaluator });
    const mine = await buildFeedback(env, s.team.org, { ...s, user: s.team.evaluator });
    const elsewhere = await buildBoard(env, s.team.org);
    const before = [await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)];
    for (const body of [{ feedbackID: theirs.id }, { feedbackID: mine.id, boardID: elsewhere.id }]) {
      const answer = await call(env, 'deleteFeedback', body, { cookie: s.team.owner.cookie });
      expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.feedbackNotFound } });
    }
    expect(await call(env, 'deleteFeedback', { feedbackID: mine.id })).toMatchObject({ status: 401 });
    expect(
      await call(env, 'deleteFeedback', { feedbackID: mine.id }, { cookie: s.team.viewer.cookie }),
    ).toMatchObject({
      status: 403,
    });
    expect([await stateOf(env, s.team.org.id), await stateOf(env, other.team.org.id)]).toEqual(before);
  });

  // ----------------------------------------------------------------------- get-feedback-by-evaluation-id

  it('answers an evaluation’s feedback, oldest first, to any member', async () => {
    const s = await setup(env);
    const now = env.clock.now();
    const later = await buildFeedback(env, s.team.org, {
      ...s,
      user: s.team.admin,
      content: 'Second',
      createdAt: now,
    });
    const earlier = await buildFeedback(env, s.team.org, {
      ...s,
      user: s.team.viewer,
      content: 'First',
      createdAt: now - MINUTE,
    });
    await buildFeedback(env, s.team.org, { board: s.board, user: s.team.viewer, content: 'Board-level' });
    const answer = await call(
      env,
      'getFeedbackByEvaluationId',
      { evaluationID: s.evaluation.id },
      { cookie: s.team.viewer.cookie },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.feedback).toEqual([
      {
        id: earlier.id,
        evalID: s.evaluation.id,
        cardID: s.card.id,
        cardName: 'Press check',
        boardID: s.board.id,
        boardName: 'Line One',
        userName: s.team.viewer.email,
        createdTime: iso(now - MINUTE),
        content: 'First',
        isUsers: true,
      },
      {
        id: later.id,
        evalID: s.evaluation.id,
        cardID: s.card.id,
        cardName: 'Press check',
        boardID: s.board.id,
        boardName: 'Line One',
        userName: s.team.admin.email,
        createdTime: iso(now),
        content: 'Second',
        isUsers: false,
      },
    ]);
  });

  it('answers feedback of an unfinished or another organisation’s evaluation as not found', async () => {
    const s = await setup(env);
    const other = await setup(env);
    await buildFeedback(env, other.team.org, { ...other, user: other.team.evaluator });
    const unfinished = await buildEvaluation(env, s.team.org, {
      ...s,
      user: s.team.evaluator,
      completedAt: null,
    });
    for (const evaluationID of [other.evaluation.id, unfinished.id]) {
      const answer = await call(
        env,
        'getFeedbackByEvaluationId',
        { evaluationID },
        { cookie: s.team.owner.cookie },
      );
      expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.evaluationNotFound } });
    }
    expect(await call(env, 'getFeedbackByEvaluationId', { evaluationID: s.evaluation.id })).toMatchObject({
      status: 401,
    });
  });

  // ------------------------------------------------------------------------------------ search-feedback

  it('searches feedback: own unless an administrator in editing mode, filtered, newest first', async () => {
    const s = await setup(env);
    const now = env.clock.now();
    const other = await setup(env);
    await buildFeedback(env, other.team.org, { ...other, user: other.team.evaluator });
    const fb = async (user: Setup['team']['admin'], minutesAgo: number, onEvaluation = true) =>
      (
        await buildFeedback(env, s.team.org, {
          board: s.board,
          evaluation: onEvaluation ? s.evaluation : null,
          user,
          createdAt: now - minutesAgo * MINUTE,
        })
      ).id;
    const f1 = await fb(s.team.evaluator, 40);
    const f2 = await fb(s.team.admin, 30);
    const f3 = await fb(s.team.evaluator, 20, false);
    const f4 = await fb(s.team.viewer, 10);
    const search = async (cookie: string, filter: Record<string, unknown> = {}) => {
      const answer = await call(env, 'searchFeedback', filter, { cookie });
      expect(answer.status).toBe(200);
      return answer.body.feedback.map((f: { id: number }) => f.id);
    };
    expect(await search(s.team.evaluator.cookie)).toEqual([f3, f1]);
    expect(await search(s.team.evaluator.cookie, { isEditing: true })).toEqual([f3, f1]);
    expect(await search(s.team.admin.cookie, { isEditing: true })).toEqual([f4, f3, f2, f1]);
    // A card filter leaves out board-level feedback, which has no card.
    expect(await search(s.team.admin.cookie, { isEditing: true, cardName: 'PRESS' })).toEqual([f4, f2, f1]);
    expect(await search(s.team.admin.cookie, { isEditing: true, boardName: 'one' })).toEqual([
      f4,
      f3,
      f2,
      f1,
    ]);
    expect(
      await search(s.team.admin.cookie, { isEditing: true, userName: s.team.viewer.email.toUpperCase() }),
    ).toEqual([f4]);
    expect(
      await search(s.team.admin.cookie, {
        isEditing: true,
        startDateTime: iso(now - 30 * MINUTE),
        endDateTime: iso(now - 20 * MINUTE),
      }),
    ).toEqual([f3, f2]);
    // Keyset paging with a frozen set.
    const first = await search(s.team.admin.cookie, { isEditing: true, quantity: 2, maxDateTime: iso(now) });
    expect(first).toEqual([f4, f3]);
    await fb(s.team.admin, -1);
    const next = await search(s.team.admin.cookie, {
      isEditing: true,
      quantity: 2,
      maxDateTime: iso(now),
      previousDateTime: iso(now - 20 * MINUTE),
      previousID: f3,
    });
    expect(next).toEqual([f2, f1]);
    const answer = await call(
      env,
      'searchFeedback',
      { isEditing: true, quantity: 1 },
      { cookie: s.team.admin.cookie },
    );
    expect(answer.body.feedback[0]).toMatchObject({ userName: s.team.admin.email, isUsers: true });
  });

  it('refuses search-feedback without a session (401) and to a viewer (403)', async () => {
    const s = await setup(env);
    expect(await call(env, 'searchFeedback', {})).toMatchObject({ status: 401 });
    expect(await call(env, 'searchFeedback', {}, { cookie: s.team.viewer.cookie })).toMatchObject({
      status: 403,
    });
  });

  it('keeps an evaluation’s mark while another member’s feedback on it remains', async () => {
    const s = await setup(env);
    const colleague = await buildUser(env, s.team.org, { role: 'evaluator' });
    const colleagueCookie = await signIn(env, colleague);
    const mine = await call(
      env,
      'addFeedback',
      { evaluationID: s.evaluation.id, boardID: s.board.id, content: 'Mine' },
      { cookie: s.team.evaluator.cookie },
    );
    await call(
      env,
      'addFeedback',
      { evaluationID: s.evaluation.id, boardID: s.board.id, content: 'Theirs' },
      { cookie: colleagueCookie },
    );
    await call(env, 'deleteFeedback', { feedbackID: mine.body.id }, { cookie: s.team.evaluator.cookie });
    expect(await hasFeedback(env, s.evaluation.id)).toBe(1);
  });
});
