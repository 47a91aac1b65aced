import { expect, it } from 'vitest';
import { ANONYMOUS_EVALUATION_GRACE_MS } from '../../../common/constants.ts';
import { ANONYMOUS_KEY_INVALID } from '../../auth/anonymous.ts';
import { hashToken } from '../../auth/tokens.ts';
import {
  buildBoard,
  buildCard,
  buildEvaluation,
  buildTeam,
  signIn,
  type TestOrg,
  type TestUser,
} from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { messages as keyMessages } from './keys.ts';
import { decodeQrCode } from '../../test/qrCodes.ts';

const HOUR = 60 * 60_000;

async function anonymousBoard(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org);
  const board = await buildBoard(env, team.org, { hasAnonymous: true, cardIds: [card.id] });
  const keyAnswer = await call(
    env,
    'getAnonymousEvaluationKey',
    { boardID: board.id },
    { cookie: team.viewer.cookie },
  );
  expect(keyAnswer.status).toBe(200);
  const key: string = keyAnswer.body.key;
  const fields = { orgName: team.org.name, boardID: board.id, anonKey: key };
  return { team, card, board, key, fields };
}

/** Answers for the default factory card: an instruction, then two Pass/Fail checks (the second allows N/A). */
function answers(card: { itemIds: number[] }, pass = true) {
  return [
    { item_id: card.itemIds[1]!, pass },
    { item_id: card.itemIds[2]!, na: true },
  ];
}

async function evaluateAnonymously(
  env: TestEnv,
  fields: Record<string, unknown>,
  card: { id: number; itemIds: number[] },
) {
  const started = await call(env, 'addEvaluationAnon', { ...fields, cardID: card.id });
  expect(started.status).toBe(200);
  const evalID: number = started.body.id;
  const done = await call(env, 'addResultsAnon', { ...fields, evalID, results: answers(card) });
  expect(done).toMatchObject({ status: 200, body: { complete: true } });
  return evalID;
}

/** The board's key now, fetched with a fresh session (the clock may have moved past the old one's). */
async function keyNow(env: TestEnv, member: TestUser, boardId: number): Promise<string> {
  const answer = await call(
    env,
    'getAnonymousEvaluationKey',
    { boardID: boardId },
    { cookie: await signIn(env, member) },
  );
  expect(answer.status).toBe(200);
  return answer.body.key;
}

async function evaluationCount(env: TestEnv, org: TestOrg) {
  const row = await env.db
    .selectFrom('evaluations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', org.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase('anonymous keys', (env) => {
  it('gives any member the board key: unguessable, stored only as a hash, the same within a period', async () => {
    const { team, board, key } = await anonymousBoard(env);
    expect(Buffer.from(key, 'base64url').length).toBeGreaterThanOrEqual(16);
    const first = await call(
      env,
      'getAnonymousEvaluationKey',
      { boardID: board.id },
      { cookie: team.viewer.cookie },
    );
    expect(first.body.url).toBe(
      `http://checkboard.test/q/${encodeURIComponent(team.org.name)}/boards/${encodeURIComponent(board.name)}/${board.id}/eval/${key}`,
    );
    // The QR code comes drawn (decision 0761) and reads back as the address.
    expect(decodeQrCode(first.body.qr)).toBe(first.body.url);
    const again = await call(
      env,
      'getAnonymousEvaluationKey',
      { boardID: board.id },
      { cookie: team.admin.cookie },
    );
    expect(again.body.key).toBe(key);
    const rows = await env.db
      .selectFrom('anonymous_keys')
      .select(['key_hash'])
      .where('board_id', '=', board.id)
      .execute();
    expect(rows).toEqual([{ key_hash: hashToken(key) }]);
  });

  it('refuses the key without a session, for another organisation’s board, or a board without anonymous evaluation', async () => {
    const { board } = await anonymousBoard(env);
    expect((await call(env, 'getAnonymousEvaluationKey', { boardID: board.id })).status).toBe(401);
    const other = await buildTeam(env);
    const theirs = await call(
      env,
      'getAnonymousEvaluationKey',
      { boardID: board.id },
      { cookie: other.admin.cookie },
    );
    expect(theirs).toMatchObject({ status: 404, body: { errMsg: keyMessages.boardNotFound } });
    const closed = await buildBoard(env, other.org, { hasAnonymous: false });
    const notAnonymous = await call(
      env,
      'getAnonymousEvaluationKey',
      { boardID: closed.id },
      { cookie: other.viewer.cookie },
    );
    expect(notAnonymous).toMatchObject({ status: 404, body: { errMsg: keyMessages.notAnonymous } });
    expect(
      await env.db.selectFrom('anonymous_keys').select('id').where('board_id', '=', closed.id).execute(),
    ).toEqual([]);
  });

  it('rotates every hour: the current and previous keys start an evaluation, an older one does not', async () => {
    const { team, card, board, fields } = await anonymousBoard(env);
    env.clock.advance(HOUR);
    const second = await keyNow(env, team.viewer, board.id);
    expect(second).not.toBe(fields.anonKey);
    // The previous period's key still starts one.
    expect((await call(env, 'addEvaluationAnon', { ...fields, cardID: card.id })).status).toBe(200);
    expect(
      (await call(env, 'addEvaluationAnon', { ...fields, anonKey: second, cardID: card.id })).status,
    ).toBe(200);
    env.clock.advance(HOUR);
    const tooOld = await call(env, 'addEvaluationAnon', { ...fields, cardID: card.id });
    expect(tooOld).toMatchObject({ status: 404, body: { errMsg: ANONYMOUS_KEY_INVALID } });
    expect((await call(env, 'getCardsByBoardIdAnon', fields)).status).toBe(404);
  });

  it('lets an evaluation started with a key be finished within 12 hours, and not after', async () => {
    const { card, fields, team } = await anonymousBoard(env);
    const first = (await call(env, 'addEvaluationAnon', { ...fields, cardID: card.id })).body.id;
    const second = (await call(env, 'addEvaluationAnon', { ...fields, cardID: card.id })).body.id;
    env.clock.advance(ANONYMOUS_EVALUATION_GRACE_MS - 1);
    // Long past starting anything, the key still finishes and shows what it started.
    expect((await call(env, 'getCardAnon', { ...fields, cardID: card.id })).status).toBe(200);
    expect(
      await call(env, 'addResultsAnon', { ...fields, evalID: first, results: answers(card) }),
    ).toMatchObject({ status: 200 });
    env.clock.advance(1);
    const late = await call(env, 'addResultsAnon', { ...fields, evalID: second, results: answers(card) });
    expect(late.status).toBe(404);
    const row = await env.db
      .selectFrom('evaluations')
      .select('completed_at')
      .where('id', '=', second)
      .executeTakeFirst();
    expect(row?.completed_at ?? null).toBeNull();
    expect(await evaluationCount(env, team.org)).toBe(2);
  });

  it('dies at once when the board stops taking anonymous evaluations, or is deleted', async () => {
    const { team, card, board, fields } = await anonymousBoard(env);
    const off = await call(
      env,
      'editBoard',
      { id: board.id, name: board.name, cardIDs: [card.id], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(off.status).toBe(200);
    expect(await call(env, 'getCardsByBoardIdAnon', fields)).toMatchObject({
      status: 404,
      body: { errMsg: ANONYMOUS_KEY_INVALID },
    });
    // Turned on again, the board has a new key; the old one stays dead.
    await call(
      env,
      'editBoard',
      { id: board.id, name: board.name, cardIDs: [card.id], hasAnonymous: true },
      { cookie: team.admin.cookie },
    );
    const fresh = (
      await call(env, 'getAnonymousEvaluationKey', { boardID: board.id }, { cookie: team.viewer.cookie })
    ).body.key;
    expect(fresh).not.toBe(fields.anonKey);
    expect((await call(env, 'getCardsByBoardIdAnon', fields)).status).toBe(404);
    expect((await call(env, 'getCardsByBoardIdAnon', { ...fields, anonKey: fresh })).status).toBe(200);

    await call(env, 'deleteBoard', { id: board.id }, { cookie: team.admin.cookie });
    expect((await call(env, 'getCardsByBoardIdAnon', { ...fields, anonKey: fresh })).status).toBe(404);
  });

  it('refuses a key of an unpaid organisation', async () => {
    const { team, fields } = await anonymousBoard(env);
    await env.db
      .updateTable('organizations')
      .set({ subscription_status: 'canceled' })
      .where('id', '=', team.org.id)
      .execute();
    expect(await call(env, 'getCardsByBoardIdAnon', fields)).toMatchObject({
      status: 402,
      body: { errMsg: 'Your account is unpaid.' },
    });
  });
});

describeEachDatabase('anonymous evaluation', (env) => {
  it('runs a card on the board as Anonymous; the result shows on the board and in search', async () => {
    const { team, card, board, fields } = await anonymousBoard(env);
    const heading = await call(env, 'getBoardAnon', fields);
    expect(heading.body).toEqual({ board: { id: board.id, name: board.name } });
    const cards = await call(env, 'getCardsByBoardIdAnon', fields);
    expect(cards.body.cards.map((c: { name: string }) => c.name)).toEqual([card.name]);
    expect(cards.body.cards[0].cardItems).toHaveLength(3);
    expect((await call(env, 'getCardAnon', { ...fields, cardID: card.id })).body.card.id).toBe(card.id);

    const evalID = await evaluateAnonymously(env, fields, card);
    const own = await call(env, 'getEvaluationAnon', { ...fields, evalID });
    expect(own.body.evaluation).toMatchObject({
      ID: evalID,
      userName: 'Anonymous',
      pass: true,
      isUsers: true,
    });

    const onBoard = await call(
      env,
      'getEvaluations',
      { boardID: board.id, startDateTime: new Date(env.clock.now() - 24 * HOUR).toISOString() },
      { cookie: team.viewer.cookie },
    );
    expect(onBoard.body.evaluations).toEqual([
      expect.objectContaining({ ID: evalID, userName: 'Anonymous', isUsers: false }),
    ]);
    const searched = await call(
      env,
      'searchEvaluations',
      { isEditing: true, userName: 'anonym' },
      { cookie: team.admin.cookie },
    );
    expect(searched.body.evaluations.map((e: { ID: number }) => e.ID)).toEqual([evalID]);
  });

  it('gives, edits, reads and deletes feedback on its own evaluation', async () => {
    const { card, fields, team } = await anonymousBoard(env);
    const evalID = await evaluateAnonymously(env, fields, card);
    const added = await call(env, 'addFeedbackAnon', {
      ...fields,
      evalID,
      content: 'The guard rail is loose.',
    });
    expect(added.status).toBe(200);
    const feedbackID = added.body.id;
    const edited = await call(env, 'editFeedbackAnon', {
      ...fields,
      evalID,
      feedbackID,
      content: 'The left guard rail is loose.',
    });
    expect(edited.body.feedback).toMatchObject({
      id: feedbackID,
      content: 'The left guard rail is loose.',
      userName: 'Anonymous',
      isUsers: true,
    });
    const read = await call(env, 'getFeedbackByEvaluationIdAnon', { ...fields, evalID });
    expect(read.body.feedback.map((f: { content: string }) => f.content)).toEqual([
      'The left guard rail is loose.',
    ]);
    // Members see it too.
    const seen = await call(
      env,
      'getFeedbackByEvaluationId',
      { evaluationID: evalID },
      { cookie: team.viewer.cookie },
    );
    expect(seen.body.feedback).toHaveLength(1);
    expect((await call(env, 'deleteFeedbackAnon', { ...fields, evalID, feedbackID })).status).toBe(200);
    expect((await call(env, 'getFeedbackByEvaluationIdAnon', { ...fields, evalID })).body.feedback).toEqual(
      [],
    );
  });

  it('deletes its own evaluation with the POST variant', async () => {
    const { card, fields, team } = await anonymousBoard(env);
    const evalID = await evaluateAnonymously(env, fields, card);
    const wrongCard = await call(env, 'deleteEvaluationAnon', { ...fields, cardID: card.id + 1000, evalID });
    expect(wrongCard.status).toBe(404);
    expect(await call(env, 'deleteEvaluationAnon', { ...fields, cardID: card.id, evalID })).toMatchObject({
      status: 200,
      body: { evalID },
    });
    expect(await evaluationCount(env, team.org)).toBe(0);
  });
});

describeEachDatabase('anonymous refusals: the key only narrows', (env) => {
  it('refuses a key of board X used on board Y', async () => {
    const { team, card, fields } = await anonymousBoard(env);
    const otherBoard = await buildBoard(env, team.org, { hasAnonymous: true, cardIds: [card.id] });
    const answer = await call(env, 'addEvaluationAnon', {
      ...fields,
      boardID: otherBoard.id,
      cardID: card.id,
    });
    expect(answer).toMatchObject({ status: 404, body: { errMsg: ANONYMOUS_KEY_INVALID } });
    expect(await evaluationCount(env, team.org)).toBe(0);
  });

  it("refuses another organisation's name with the key", async () => {
    const { team, card, fields } = await anonymousBoard(env);
    const other = await buildTeam(env);
    const answer = await call(env, 'addEvaluationAnon', {
      ...fields,
      orgName: other.org.name,
      cardID: card.id,
    });
    expect(answer).toMatchObject({ status: 404, body: { errMsg: ANONYMOUS_KEY_INVALID } });
    expect(await evaluationCount(env, team.org)).toBe(0);
    expect(await evaluationCount(env, other.org)).toBe(0);
  });

  it('refuses an unknown key and a key with the right shape but no board', async () => {
    const { team, card, fields } = await anonymousBoard(env);
    for (const anonKey of [
      'made-up',
      fields.anonKey.slice(0, -1) + (fields.anonKey.endsWith('A') ? 'B' : 'A'),
    ]) {
      const answer = await call(env, 'addEvaluationAnon', { ...fields, anonKey, cardID: card.id });
      expect(answer).toMatchObject({ status: 404, body: { errMsg: ANONYMOUS_KEY_INVALID } });
    }
    expect(await evaluationCount(env, team.org)).toBe(0);
  });

  it('refuses a card that is not on the key’s board', async () => {
    const { team, fields } = await anonymousBoard(env);
    const elsewhere = await buildCard(env, team.org);
    expect((await call(env, 'getCardAnon', { ...fields, cardID: elsewhere.id })).status).toBe(404);
    expect((await call(env, 'addEvaluationAnon', { ...fields, cardID: elsewhere.id })).status).toBe(404);
    expect(await evaluationCount(env, team.org)).toBe(0);
  });

  it("refuses an evalID of another board, another key's anonymous evaluation, or a member's evaluation", async () => {
    const { team, card, board, fields } = await anonymousBoard(env);
    const otherBoard = await buildBoard(env, team.org, { hasAnonymous: true, cardIds: [card.id] });
    const otherKey = (
      await call(env, 'getAnonymousEvaluationKey', { boardID: otherBoard.id }, { cookie: team.viewer.cookie })
    ).body.key;
    const otherFields = { orgName: team.org.name, boardID: otherBoard.id, anonKey: otherKey };
    const onOtherBoard = await evaluateAnonymously(env, otherFields, card);
    env.clock.advance(HOUR);
    const laterKey = await keyNow(env, team.viewer, board.id);
    const byOtherKey = await evaluateAnonymously(env, { ...fields, anonKey: laterKey }, card);
    const byMember = await buildEvaluation(env, team.org, { board, card, user: team.evaluator });

    for (const evalID of [onOtherBoard, byOtherKey, byMember.id]) {
      for (const [name, body] of [
        ['getEvaluationAnon', { ...fields, evalID }],
        ['addResultsAnon', { ...fields, evalID, results: answers(card) }],
        ['deleteEvaluationAnon', { ...fields, cardID: card.id, evalID }],
        ['addFeedbackAnon', { ...fields, evalID, content: 'Not mine' }],
        ['getFeedbackByEvaluationIdAnon', { ...fields, evalID }],
      ] as const) {
        const answer = await call(env, name, body);
        expect(answer.status, `${name} on evaluation ${evalID}`).toBe(404);
      }
    }
    expect(await evaluationCount(env, team.org)).toBe(3);
    const feedback = await env.db
      .selectFrom('feedback')
      .select('id')
      .where('org_id', '=', team.org.id)
      .execute();
    expect(feedback).toEqual([]);
  });

  it("refuses to edit or delete another key's feedback", async () => {
    const { team, card, board, fields } = await anonymousBoard(env);
    const evalID = await evaluateAnonymously(env, fields, card);
    const feedbackID = (await call(env, 'addFeedbackAnon', { ...fields, evalID, content: 'Mine' })).body.id;
    env.clock.advance(HOUR);
    const laterKey = await keyNow(env, team.viewer, board.id);
    const stranger = { ...fields, anonKey: laterKey };
    expect(
      (await call(env, 'editFeedbackAnon', { ...stranger, evalID, feedbackID, content: 'Changed' })).status,
    ).toBe(404);
    expect((await call(env, 'deleteFeedbackAnon', { ...stranger, evalID, feedbackID })).status).toBe(404);
    const stored = await env.db
      .selectFrom('feedback')
      .select('content')
      .where('id', '=', feedbackID)
      .executeTakeFirstOrThrow();
    expect(stored.content).toBe('Mine');
  });

  it('checks the shape of the key fields first, with a clear message', async () => {
    const answer = await call(env, 'getCardsByBoardIdAnon', {
      orgName: 'Acme Ltd',
      boardID: 'one',
      anonKey: 'k',
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { errMsg: 'boardID must be a number.', errField: 'boardID' },
    });
  });
});

describeEachDatabase('anonymous rate limit', (env) => {
  it('limits the -anon calls of one address per minute', async () => {
    const { fields } = await anonymousBoard(env);
    const limit = env.config.anonymousCallsPerMinute;
    for (let i = 0; i < limit; i++) expect((await call(env, 'getBoardAnon', fields)).status).toBe(200);
    const over = await call(env, 'getBoardAnon', fields);
    expect(over).toMatchObject({
      status: 429,
      body: { errMsg: 'Too many requests. Please wait a minute and try again.' },
    });
    env.clock.advance(60_000);
    expect((await call(env, 'getBoardAnon', fields)).status).toBe(200);
  });
});
