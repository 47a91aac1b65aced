/**
 * The authorization matrix (issue 10), generated from the contract: every call of common/api is made with
 * no session, by each role below the one it needs, by a member of an unpaid organisation, by another
 * organisation's Owner with this organisation's ids, and (for the -anon calls) with no key, another
 * board's key and another organisation's key. Each refusal is checked, the target organisation's rows are
 * compared before and after (nothing written), and its planted marker string must appear in no answer
 * (spreadsheets are unzipped and read). A call added to the contract without a sample here fails the
 * first test (and the type check: `samples` must name every call).
 */
import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { api, type Api, type CallDef, type CallName, type RequestOf } from '../../common/api/index.ts';
import { ACCESS_ROLE, ROLES, hasRole, type Role } from '../../common/roles.ts';
import { allHandlers } from '../modules/index.ts';
import { buildBoard, buildCard, buildTeam, unique } from '../test/factories.ts';
import { call, describeEachDatabase, type CallAnswer, type TestEnv } from '../test/harness.ts';

const MARKER = 'Zqxmarker';

async function buildFixture(env: TestEnv, options: { marker?: string; paid?: boolean } = {}) {
  const tag = options.marker ?? '';
  const team = await buildTeam(env, { name: unique(`Org ${tag} `), paid: options.paid ?? true });
  const card = await buildCard(env, team.org, {
    name: unique(`Card ${tag} `),
    items: [
      { type: 'instruction', content: `<p>Read ${tag}</p>` },
      { type: 'pass_fail', content: `<p>Guards ${tag}</p>` },
      { type: 'text', content: `<p>Notes ${tag}</p>` },
    ],
  });
  const board = await buildBoard(env, team.org, {
    name: unique(`Board ${tag} `),
    hasAnonymous: true,
    cardIds: [card.id],
  });
  const otherBoard = await buildBoard(env, team.org, {
    name: unique(`Second ${tag} `),
    hasAnonymous: true,
    cardIds: [card.id],
  });
  const fixture = {
    ...team,
    card,
    board,
    otherBoard,
    anonKey: '',
    otherBoardKey: '',
    completedEval: 0,
    openEval: 0,
    feedbackId: 0,
    anonEval: 0,
    anonFeedbackId: 0,
  };
  if (options.paid === false) return fixture;

  const key = async (boardID: number) => {
    const answer = await call(env, 'getAnonymousEvaluationKey', { boardID }, { cookie: team.viewer.cookie });
    expect(answer.status).toBe(200);
    return answer.body.key as string;
  };
  fixture.anonKey = await key(board.id);
  fixture.otherBoardKey = await key(otherBoard.id);
  const cookie = team.evaluator.cookie;
  const started = await call(env, 'addEvaluation', { boardID: board.id, cardID: card.id }, { cookie });
  fixture.completedEval = started.body.id;
  const results = [
    { item_id: card.itemIds[1]!, pass: true },
    { item_id: card.itemIds[2]!, text_result: `Answer ${tag}` },
  ];
  expect((await call(env, 'addResults', { evalID: fixture.completedEval, results }, { cookie })).status).toBe(
    200,
  );
  const feedback = await call(
    env,
    'addFeedback',
    { evaluationID: fixture.completedEval, boardID: board.id, content: `Feedback ${tag}` },
    { cookie },
  );
  fixture.feedbackId = feedback.body.id;
  fixture.openEval = (
    await call(env, 'addEvaluation', { boardID: board.id, cardID: card.id }, { cookie })
  ).body.id;
  const anon = { orgName: team.org.name, boardID: board.id, anonKey: fixture.anonKey };
  fixture.anonEval = (await call(env, 'addEvaluationAnon', { ...anon, cardID: card.id })).body.id;
  const anonResults = await call(env, 'addResultsAnon', { ...anon, evalID: fixture.anonEval, results });
  expect(anonResults.status).toBe(200);
  const anonFeedback = await call(env, 'addFeedbackAnon', {
    ...anon,
    evalID: fixture.anonEval,
    content: `Visitor ${tag}`,
  });
  expect(anonFeedback.status).toBe(200);
  fixture.anonFeedbackId = anonFeedback.body.id;
  return fixture;
}
type Fixture = Awaited<ReturnType<typeof buildFixture>>;

const flags = { isViewOnly: true, isEvaluator: false, isAdmin: false, isOwner: false };
const setting = {
  board_id: -1,
  card_id: -1,
  card_item_id: -1,
  start_number: 7,
  start_duration: 'Days',
  end_number: -1,
  end_duration: 'Days',
  time_division: 'Days',
  type: 'Bar',
  graph_order: 0,
} as const;
const SINCE = new Date(Date.UTC(2025, 11, 1)).toISOString();
const anonFields = (t: Fixture) => ({ orgName: t.org.name, boardID: t.board.id, anonKey: t.anonKey });

/** A valid request of every call, aimed at the objects of organisation `t`. */
const samples: { [N in CallName]: (t: Fixture) => RequestOf<Api[N]> } = {
  getUserData: () => ({}),
  login: (t) => ({ username: t.viewer.email, password: 'not the password' }),
  logout: () => ({}),
  refreshToken: () => ({}),
  requestPasswordReset: (t) => ({ username: t.viewer.email }),
  resendVerification: (t) => ({ username: t.viewer.email }),
  resetPassword: (t) => ({
    username: t.viewer.email,
    password1: 'new password 1',
    password2: 'new password 1',
    token: 'x',
  }),
  signup: () => ({
    orgname: unique('Matrix Works '),
    email: `${unique('m')}@example.com`,
    password: 'a good password',
  }),
  verifyEmail: () => ({ token: 'not-a-token' }),
  createApp: () => ({ checkoutID: 'cs_not_a_checkout' }),
  selectSubscription: () => ({ numDepartments: 2 }),
  addUser: () => ({ email: `${unique('added')}@example.com`, ...flags }),
  deleteUser: (t) => ({ id: t.viewer.id }),
  editUser: (t) => ({ id: t.viewer.id, email: t.viewer.email, ...flags, isEvaluator: true }),
  getUsers: () => ({}),
  addBoard: (t) => ({ name: unique('Matrix board '), cardIDs: [t.card.id], hasAnonymous: false }),
  deleteBoard: (t) => ({ id: t.board.id }),
  editBoard: (t) => ({ id: t.board.id, name: unique('Renamed '), cardIDs: [t.card.id], hasAnonymous: false }),
  getBoards: () => ({}),
  getBoardsUsed: (t) => ({ orgName: t.org.name }),
  syncCardBoards: (t) => ({ cardID: t.card.id, boardIDs: [t.board.id] }),
  addCard: () => ({ name: unique('Matrix card ') }),
  addCardItem: (t) => ({
    cardID: t.card.id,
    type: 'instruction',
    content: '<p>More</p>',
    na: false,
    order: 9,
  }),
  deleteCard: (t) => ({ id: t.card.id }),
  deleteCardItem: (t) => ({ id: t.card.itemIds[0]! }),
  editCard: (t) => ({ oldName: t.card.name, newName: unique('Renamed card ') }),
  editCardItem: (t) => ({
    id: t.card.itemIds[0]!,
    cardID: t.card.id,
    type: 'instruction',
    content: '<p>Changed</p>',
    na: false,
    order: 0,
  }),
  getCard: (t) => ({ cardID: t.card.id }),
  getCards: () => ({}),
  getCardsByBoardId: (t) => ({ boardID: t.board.id }),
  getCardsUsed: (t) => ({ orgName: t.org.name }),
  getDeletedCards: () => ({ startTime: SINCE }),
  replaceCard: (t) => ({
    card: {
      id: t.card.id,
      name: unique('Replaced '),
      cardItems: [{ type: 'instruction', content: '<p>Only</p>', na: false, order: 0 }],
    },
  }),
  addEvaluation: (t) => ({ boardID: t.board.id, cardID: t.card.id }),
  addFeedback: (t) => ({ evaluationID: t.completedEval, boardID: t.board.id, content: 'Matrix feedback' }),
  addResults: (t) => ({ evalID: t.openEval, results: [{ item_id: t.card.itemIds[1]!, pass: true }] }),
  deleteEvaluation: (t) => ({ evalID: t.completedEval }),
  deleteFeedback: (t) => ({
    isAdmin: true,
    feedbackID: t.feedbackId,
    evaluationID: t.completedEval,
    boardID: t.board.id,
  }),
  editFeedback: (t) => ({
    isAdmin: true,
    feedbackID: t.feedbackId,
    evaluationID: t.completedEval,
    content: 'Changed feedback',
  }),
  getEvaluation: (t) => ({ evalID: t.completedEval }),
  getEvaluations: (t) => ({ boardID: t.board.id, startDateTime: SINCE }),
  getExcel: () => ({ isEditing: true }),
  getFeedbackByEvaluationId: (t) => ({ evaluationID: t.completedEval }),
  getFeedbackExcel: () => ({ isEditing: true }),
  searchEvaluations: () => ({ isEditing: true }),
  searchEvaluationsWithResults: () => ({ isEditing: true }),
  searchFeedback: () => ({ isEditing: true }),
  addEvaluationAnon: (t) => ({ ...anonFields(t), cardID: t.card.id }),
  addFeedbackAnon: (t) => ({ ...anonFields(t), evalID: t.anonEval, content: 'Matrix visitor' }),
  addResultsAnon: (t) => ({
    ...anonFields(t),
    evalID: t.anonEval,
    results: [{ item_id: t.card.itemIds[1]!, pass: true }],
  }),
  deleteEvaluationAnon: (t) => ({ ...anonFields(t), cardID: t.card.id, evalID: t.anonEval }),
  deleteFeedbackAnon: (t) => ({ ...anonFields(t), evalID: t.anonEval, feedbackID: t.anonFeedbackId }),
  editFeedbackAnon: (t) => ({
    ...anonFields(t),
    evalID: t.anonEval,
    feedbackID: t.anonFeedbackId,
    content: 'Matrix visitor edit',
  }),
  getAnonymousEvaluationKey: (t) => ({ boardID: t.board.id }),
  getBoardAnon: (t) => anonFields(t),
  getCardAnon: (t) => ({ ...anonFields(t), cardID: t.card.id }),
  getCardsByBoardIdAnon: (t) => anonFields(t),
  getEvaluationAnon: (t) => ({ ...anonFields(t), evalID: t.anonEval }),
  getFeedbackByEvaluationIdAnon: (t) => ({ ...anonFields(t), evalID: t.anonEval }),
  addDashboard: () => ({ name: unique('Dash '), settings: [setting] }),
  deleteDashboard: () => ({ ID: 1 }),
  editDashboard: () => ({ id: 1, name: unique('Dash '), settings: [setting] }),
  getBoardsCardsAndItems: () => ({ startDateTime: SINCE }),
  getDashboards: () => ({}),
  getReport: (t) => ({ setting: { ...setting, board_id: t.board.id }, timeZone: 'UTC' }),
  setDefaultDashboard: () => ({ ID: 1 }),
};

const registered = new Set(Object.keys(allHandlers));
const calls = (Object.entries(api) as [CallName, CallDef][]).map(([name, def]) => ({ name, def }));
const memberCalls = calls.filter(({ def }) => ACCESS_ROLE[def.access] !== undefined);
const anonymousCalls = calls.filter(({ def }) => def.access === 'anonymous');

/** Tenant rows of one organisation, as a comparable value. */
async function snapshot(env: TestEnv, orgId: number) {
  const tables = [
    'users',
    'one_time_tokens',
    'checkouts',
    'boards',
    'board_cards',
    'cards',
    'card_items',
    'evaluations',
    'results',
    'feedback',
    'dashboards',
    'dashboard_settings',
    'anonymous_keys',
  ] as const;
  const out: Record<string, unknown> = {
    organization: await env.db.selectFrom('organizations').selectAll().where('id', '=', orgId).execute(),
  };
  for (const table of tables) {
    const rows = await env.db.selectFrom(table).selectAll().where('org_id', '=', orgId).execute();
    out[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/** Everything an answer shows, spreadsheets read cell by cell. */
async function answerText(answer: CallAnswer): Promise<string> {
  if (Buffer.isBuffer(answer.body) && answer.body.subarray(0, 2).toString() === 'PK') {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(answer.body as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.eachSheet((sheet) =>
      sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text ?? cell.value)))),
    );
    return cells.join('\n');
  }
  return `${JSON.stringify(answer.headers)}\n${Buffer.isBuffer(answer.body) ? answer.body.toString('latin1') : JSON.stringify(answer.body)}`;
}

function lowerRoles(access: CallDef['access']): Role[] {
  const needed = ACCESS_ROLE[access]!;
  return ROLES.filter((role) => !hasRole(role, needed));
}

describeEachDatabase('authorization matrix', (env) => {
  let a: Fixture;
  let b: Fixture;
  let unpaid: Fixture;
  beforeAll(async () => {
    a = await buildFixture(env);
    b = await buildFixture(env, { marker: MARKER });
    unpaid = await buildFixture(env, { paid: false });
  });

  it('has a sample request for every call of the contract, valid by its own schema', () => {
    expect(Object.keys(samples).sort()).toEqual(Object.keys(api).sort());
    for (const { name, def } of calls) {
      const parsed = def.request.safeParse(samples[name](a) as unknown);
      expect(parsed.success ? null : parsed.error.issues, name).toBeNull();
    }
  });

  for (const { name, def } of memberCalls) {
    it.skipIf(!registered.has(name))(`${name}: no session → 401, nothing written`, async () => {
      const before = await snapshot(env, a.org.id);
      const answer = await call(env, name, samples[name](a));
      expect(answer.status, name).toBe(401);
      expect(answer.body.errMsg).toBe('Please sign in to continue.');
      expect(await snapshot(env, a.org.id)).toEqual(before);
    });

    for (const role of lowerRoles(def.access)) {
      it.skipIf(!registered.has(name))(`${name}: ${role} → 403, nothing written`, async () => {
        const before = await snapshot(env, a.org.id);
        const answer = await call(env, name, samples[name](a), { cookie: a[role].cookie });
        expect(answer).toMatchObject({ status: 403, body: { errMsg: 'Not authorized.' } });
        expect(await snapshot(env, a.org.id)).toEqual(before);
      });
    }

    it.skipIf(!registered.has(name) || def.whenUnpaid === true)(
      `${name}: member of an unpaid organisation → 402, nothing written`,
      async () => {
        const before = await snapshot(env, unpaid.org.id);
        const answer = await call(env, name, samples[name](unpaid), { cookie: unpaid.owner.cookie });
        expect(answer).toMatchObject({ status: 402, body: { errMsg: 'Your account is unpaid.' } });
        expect(await snapshot(env, unpaid.org.id)).toEqual(before);
      },
    );
  }

  for (const { name } of anonymousCalls) {
    it.skipIf(!registered.has(name))(
      `${name}: no key, another board's key, another organisation's key`,
      async () => {
        const before = { a: await snapshot(env, a.org.id), b: await snapshot(env, b.org.id) };
        const own = samples[name](a) as Record<string, unknown>;
        const attempts = {
          'no key': { ...own, anonKey: 'x'.repeat(43) },
          "another board's key": { ...own, anonKey: a.otherBoardKey },
          "another organisation's key": { ...own, anonKey: b.anonKey },
          "this key on another organisation's board": { ...(samples[name](b) as object), anonKey: a.anonKey },
          'a session instead of a key': { ...own, anonKey: '' },
        };
        for (const [what, body] of Object.entries(attempts)) {
          const answer = await call(env, name, body, { cookie: a.owner.cookie });
          expect(answer.status, `${name}: ${what}`).toBeGreaterThanOrEqual(400);
          expect(answer.status, `${name}: ${what}`).toBeLessThan(500);
          expect((await answerText(answer)).toLowerCase()).not.toContain(MARKER.toLowerCase());
        }
        expect({ a: await snapshot(env, a.org.id), b: await snapshot(env, b.org.id) }).toEqual(before);
      },
    );
  }

  // Last: these may legitimately change the caller's own organisation (e.g. add-card), never the other.
  for (const { name } of memberCalls) {
    const aimed = (body: unknown) =>
      /"(?:id|ID|\w+ID|\w+Id|\w+_id)":\s*\[?\d/.test(JSON.stringify(body)) ||
      JSON.stringify(body).includes(MARKER);
    it.skipIf(!registered.has(name))(
      `${name}: another organisation's Owner with this organisation's ids → refused, nothing leaked or written`,
      async () => {
        const before = await snapshot(env, b.org.id);
        const body = samples[name](b);
        const answer = await call(env, name, body, { cookie: a.owner.cookie });
        expect((await answerText(answer)).toLowerCase(), name).not.toContain(MARKER.toLowerCase());
        if (aimed(body)) {
          expect(answer.status, name).toBeGreaterThanOrEqual(400);
          expect(answer.status, name).toBeLessThan(500);
        } else {
          expect(answer.status, name).toBeLessThan(500);
        }
        expect(await snapshot(env, b.org.id), name).toEqual(before);
      },
    );
  }

  it("leaks nothing of the other organisation in any of the caller's own answers", async () => {
    // Every read of organisation A, by its Owner, with A's ids: B's marker never appears.
    for (const { name, def } of memberCalls) {
      if (!registered.has(name) || def.mutates) continue;
      const answer = await call(env, name, samples[name](a), { cookie: a.owner.cookie });
      expect(answer.status, name).toBeLessThan(500);
      expect((await answerText(answer)).toLowerCase(), name).not.toContain(MARKER.toLowerCase());
    }
  });
});
