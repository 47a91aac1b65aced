/**
 * A valid request of every call of the contract, aimed at one organisation's objects, and the fixture
 * organisation they aim at (built through the API: cards, boards with anonymous keys, completed and open
 * evaluations, feedback, an anonymous evaluation). Shared by the authorization matrix and the fuzzing
 * suite, so a call added to the contract must get a sample here (the type requires one per call).
 */
import { expect } from 'vitest';
import type { Api, CallName, RequestOf } from '../../common/api/index.ts';
import { buildBoard, buildCard, buildTeam, unique } from '../test/factories.ts';
import { call, type TestEnv } from '../test/harness.ts';

export const MARKER = 'Zqxmarker';

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

export async function buildFixture(env: TestEnv, options: { marker?: string; paid?: boolean } = {}) {
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
    dashboardId: 0,
    completedPhoto: 0,
    openPhoto: 0,
    anonPhoto: 0,
    anonOpenEval: 0,
    anonOpenPhoto: 0,
    failedEval: 0,
    actionId: 0,
    actionPhoto: 0,
    apiTokenId: 0,
    webhookId: 0,
    deliveryId: 0,
    reportLinkId: 0,
    reportLinkToken: '',
    scheduleId: 0,
  };
  if (options.paid === false) return fixture;

  const dashboard = await call(
    env,
    'addDashboard',
    { name: `Dash ${tag}`.slice(0, 30), settings: [{ ...setting, board_id: board.id }] },
    { cookie: team.owner.cookie },
  );
  expect(dashboard.status).toBe(200);
  fixture.dashboardId = dashboard.body.dashboard.id;
  const apiToken = await call(
    env,
    'addApiToken',
    { name: `Token ${tag}`.slice(0, 30), access: 'read', expiresAt: null },
    { cookie: team.owner.cookie },
  );
  expect(apiToken.status).toBe(200);
  fixture.apiTokenId = apiToken.body.token.id;
  const hook = await call(
    env,
    'addWebhook',
    {
      url: `https://hooks.example.com/${tag || 'a'}`,
      description: `Hook ${tag}`,
      events: ['feedback.added'],
    },
    { cookie: team.owner.cookie },
  );
  expect(hook.status).toBe(200);
  fixture.webhookId = hook.body.webhook.id;
  // Single sign-on configured (off), its issuer and client ID carrying the marker: never readable elsewhere.
  const sso = await call(
    env,
    'setSsoSettings',
    {
      enabled: false,
      issuer: `https://login.example.com/${tag || 'a'}`,
      clientId: `client-${tag || 'a'}`,
      clientSecret: `secret-${tag || 'a'}`,
      defaultRole: 'evaluator',
      allowedDomains: [],
      requireSso: false,
    },
    { cookie: team.owner.cookie },
  );
  expect(sso.status).toBe(200);

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
  const photo = async (answer: Promise<{ status: number; body: { photo: { id: number } } }>) => {
    const { status, body } = await answer;
    expect(status).toBe(200);
    return body.photo.id;
  };
  const guards = card.itemIds[1]!;
  fixture.completedPhoto = await photo(
    call(env, 'addResultPhoto', { evalID: fixture.completedEval, itemID: guards }, { cookie }),
  );
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
  const link = await call(
    env,
    'addReportLink',
    { evalID: fixture.completedEval, expiresAt: null },
    { cookie: team.admin.cookie },
  );
  expect(link.status).toBe(200);
  fixture.reportLinkId = link.body.link.id;
  fixture.reportLinkToken = link.body.token;
  const delivery = await env.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('org_id', '=', team.org.id)
    .where('endpoint_id', '=', fixture.webhookId)
    .executeTakeFirstOrThrow();
  fixture.deliveryId = delivery.id;
  fixture.openEval = (
    await call(env, 'addEvaluation', { boardID: board.id, cardID: card.id }, { cookie })
  ).body.id;
  fixture.openPhoto = await photo(
    call(env, 'addResultPhoto', { evalID: fixture.openEval, itemID: guards }, { cookie }),
  );
  const anon = { orgName: team.org.name, boardID: board.id, anonKey: fixture.anonKey };
  fixture.anonEval = (await call(env, 'addEvaluationAnon', { ...anon, cardID: card.id })).body.id;
  fixture.anonPhoto = await photo(
    call(env, 'addResultPhotoAnon', { ...anon, evalID: fixture.anonEval, itemID: guards }),
  );
  fixture.anonOpenEval = (await call(env, 'addEvaluationAnon', { ...anon, cardID: card.id })).body.id;
  fixture.anonOpenPhoto = await photo(
    call(env, 'addResultPhotoAnon', { ...anon, evalID: fixture.anonOpenEval, itemID: guards }),
  );
  const anonResults = await call(env, 'addResultsAnon', { ...anon, evalID: fixture.anonEval, results });
  expect(anonResults.status).toBe(200);
  const anonFeedback = await call(env, 'addFeedbackAnon', {
    ...anon,
    evalID: fixture.anonEval,
    content: `Visitor ${tag}`,
  });
  expect(anonFeedback.status).toBe(200);
  fixture.anonFeedbackId = anonFeedback.body.id;

  // A failed evaluation and a corrective action raised from it by the evaluator, assigned to the admin.
  fixture.failedEval = (
    await call(env, 'addEvaluation', { boardID: board.id, cardID: card.id }, { cookie })
  ).body.id;
  const failed = [{ item_id: card.itemIds[1]!, pass: false }];
  expect(
    (await call(env, 'addResults', { evalID: fixture.failedEval, results: failed }, { cookie })).status,
  ).toBe(200);
  const raised = await call(
    env,
    'addAction',
    {
      boardID: board.id,
      evalID: fixture.failedEval,
      itemID: card.itemIds[1]!,
      title: `Fix guards ${tag}`,
      description: `Loose guard ${tag}`,
      assigneeID: team.admin.id,
      dueDate: '2026-02-01',
      priority: 'High',
    },
    { cookie },
  );
  expect(raised.status).toBe(200);
  fixture.actionId = raised.body.action.id;
  fixture.actionPhoto = await photo(call(env, 'addActionPhoto', { actionID: fixture.actionId }, { cookie }));

  // A daily schedule of the card on the board, assigned to the evaluator (issue 13).
  const scheduled = await call(
    env,
    'addSchedule',
    {
      boardID: board.id,
      cardID: card.id,
      rule: 'FREQ=DAILY',
      startDate: '2026-01-01',
      windowStart: '06:00',
      windowEnd: '10:00',
      assigneeIDs: [team.evaluator.id],
    },
    { cookie: team.admin.cookie },
  );
  expect(scheduled.status).toBe(200);
  fixture.scheduleId = scheduled.body.schedule.id;
  return fixture;
}
export type Fixture = Awaited<ReturnType<typeof buildFixture>>;

const flags = { isViewOnly: true, isEvaluator: false, isAdmin: false, isOwner: false };
const SINCE = new Date(Date.UTC(2025, 11, 1)).toISOString();
const anonFields = (t: Fixture) => ({ orgName: t.org.name, boardID: t.board.id, anonKey: t.anonKey });

/** A valid request of every call, aimed at the objects of organisation `t`. */
export const samples: { [N in CallName]: (t: Fixture) => RequestOf<Api[N]> } = {
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
    timeZone: 'Pacific/Auckland',
  }),
  verifyEmail: () => ({ token: 'not-a-token' }),
  getOrgSettings: () => ({}),
  setOrgSettings: () => ({ timeZone: 'Europe/Paris' }),
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
  getEvaluations: (t) => ({ boardID: t.board.id, startDateTime: SINCE, timeZone: 'Europe/Berlin' }),
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
  addResultPhoto: (t) => ({ evalID: t.openEval, itemID: t.card.itemIds[1]! }),
  deleteResultPhoto: (t) => ({ photoID: t.openPhoto }),
  getResultPhoto: (t) => ({ photoID: t.completedPhoto, size: 'thumb' }),
  addResultPhotoAnon: (t) => ({ ...anonFields(t), evalID: t.anonOpenEval, itemID: t.card.itemIds[1]! }),
  deleteResultPhotoAnon: (t) => ({ ...anonFields(t), photoID: t.anonOpenPhoto }),
  getResultPhotoAnon: (t) => ({ ...anonFields(t), photoID: t.anonPhoto, size: 'full' }),
  addDashboard: () => ({ name: unique('Dash '), settings: [setting] }),
  deleteDashboard: (t) => ({ ID: t.dashboardId }),
  editDashboard: (t) => ({ id: t.dashboardId, name: unique('Dash '), settings: [setting] }),
  getBoardsCardsAndItems: () => ({ startDateTime: SINCE }),
  getDashboards: () => ({}),
  getReport: (t) => ({ setting: { ...setting, board_id: t.board.id }, timeZone: 'UTC' }),
  setDefaultDashboard: (t) => ({ ID: t.dashboardId }),
  addAction: (t) => ({
    boardID: t.board.id,
    evalID: t.failedEval,
    itemID: t.card.itemIds[1]!,
    title: 'Matrix action',
    assigneeID: t.evaluator.id,
    dueDate: '2026-03-01',
    priority: 'Low',
  }),
  editAction: (t) => ({
    actionID: t.actionId,
    title: 'Matrix action edited',
    description: '',
    assigneeID: t.admin.id,
    dueDate: '2026-03-02',
    priority: 'Medium',
  }),
  completeAction: (t) => ({ actionID: t.actionId, note: 'Matrix fixed' }),
  cancelAction: (t) => ({ actionID: t.actionId, note: 'Matrix cancelled' }),
  getAction: (t) => ({ actionID: t.actionId }),
  addActionPhoto: (t) => ({ actionID: t.actionId }),
  deleteActionPhoto: (t) => ({ photoID: t.actionPhoto }),
  getActionPhoto: (t) => ({ photoID: t.actionPhoto, size: 'thumb' }),
  getActions: () => ({ scope: 'all' }),
  getActionsExcel: () => ({ scope: 'all' }),
  getActionAssignees: () => ({}),
  getBoardActionCounts: (t) => ({ boardID: t.board.id }),
  getSchedules: (t) => ({ boardID: t.board.id }),
  addSchedule: (t) => ({
    boardID: t.board.id,
    cardID: t.card.id,
    rule: 'FREQ=WEEKLY;BYDAY=MO,TH',
    startDate: '2026-01-05',
    assigneeIDs: [t.evaluator.id],
  }),
  editSchedule: (t) => ({
    scheduleID: t.scheduleId,
    rule: 'FREQ=DAILY',
    startDate: '2026-01-01',
    windowStart: '07:00',
    windowEnd: '09:00',
    assigneeIDs: [t.admin.id],
  }),
  deleteSchedule: (t) => ({ scheduleID: t.scheduleId }),
  getScheduleOccurrences: (t) => ({ start: SINCE, end: '2026-01-20T00:00:00.000Z', boardID: t.board.id }),
  getBoardScheduleCounts: () => ({}),
  getScheduleCompliance: (t) => ({ start: SINCE, end: '2026-01-20T00:00:00.000Z', boardID: t.board.id }),
  getApiTokens: () => ({}),
  addApiToken: () => ({ name: unique('Token ').slice(0, 30), access: 'write', expiresAt: null }),
  revokeApiToken: (t) => ({ id: t.apiTokenId }),
  getWebhooks: () => ({}),
  addWebhook: () => ({
    url: 'https://hooks.example.com/new',
    description: '',
    events: ['evaluation.completed'],
  }),
  editWebhook: (t) => ({
    id: t.webhookId,
    url: 'https://hooks.example.com/edited',
    description: 'Edited',
    events: ['evaluation.failed'],
    enabled: true,
  }),
  deleteWebhook: (t) => ({ id: t.webhookId }),
  getWebhookDeliveries: (t) => ({ webhookID: t.webhookId }),
  resendWebhookDelivery: (t) => ({ id: t.deliveryId }),
  addEvaluationSignature: (t) => ({ evalID: t.openEval }),
  addEvaluationSignatureAnon: (t) => ({ ...anonFields(t), evalID: t.anonOpenEval }),
  getEvaluationReport: (t) => ({ evalID: t.completedEval, paper: 'a4' }),
  getReportLinks: (t) => ({ evalID: t.completedEval }),
  addReportLink: (t) => ({ evalID: t.completedEval, expiresAt: null }),
  revokeReportLink: (t) => ({ id: t.reportLinkId }),
  getSharedReport: (t) => ({ token: t.reportLinkToken, paper: 'letter' }),
  getSsoSettings: () => ({}),
  setSsoSettings: () => ({
    enabled: false,
    issuer: 'https://login.example.com/other',
    clientId: 'checkboard-other',
    defaultRole: 'viewer',
    allowedDomains: ['example.com'],
    requireSso: false,
  }),
  getSsoLoginOptions: (t) => ({ orgName: t.org.name }),
  startSso: (t) => ({ orgName: t.org.name }),
};
