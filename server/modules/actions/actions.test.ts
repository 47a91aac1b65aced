import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { actionMessages } from '../../../common/actions.ts';
import type { TestEnv } from '../../test/harness.ts';
import { call, describeEachDatabase } from '../../test/harness.ts';
import {
  buildBoard,
  buildCard,
  buildEvaluation,
  buildTeam,
  buildUser,
  signIn,
} from '../../test/factories.ts';
import { messages } from './service.ts';
import { sendActionReminders } from './reminders.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The fake clock's start: 2026-01-15 12:00 UTC (already the 16th in Auckland). */
const NOON_15_JAN = Date.UTC(2026, 0, 15, 12);

/** A team; a card on a board; a completed evaluation by the evaluator whose "Guards" item failed. */
async function setup(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org, { name: 'Press check' });
  const board = await buildBoard(env, team.org, { name: 'Line One', cardIds: [card.id] });
  const [instruction, guards, floor] = card.itemIds as [number, number, number];
  const results = [
    { item_id: instruction, item_type: 'instruction' as const, position: 0, content: '<p>Check</p>' },
    { item_id: guards, item_type: 'pass_fail' as const, position: 1, content: '<p>Guards</p>', pass: false },
    { item_id: floor, item_type: 'pass_fail' as const, position: 2, content: '<p>Floor</p>', pass: true },
  ];
  const failed = await buildEvaluation(env, team.org, {
    board,
    card,
    user: team.evaluator,
    completedAt: env.clock.now() - MINUTE,
    pass: false,
    results,
  });
  const assignee = await buildUser(env, team.org, { role: 'evaluator' });
  return {
    team,
    card,
    board,
    failed,
    items: { instruction, guards, floor },
    assignee: { ...assignee, cookie: await signIn(env, assignee) },
  };
}
type Setup = Awaited<ReturnType<typeof setup>>;

function raiseBody(s: Setup, overrides: Record<string, unknown> = {}) {
  return {
    boardID: s.board.id,
    evalID: s.failed.id,
    itemID: s.items.guards,
    title: '  Guards in place  ',
    description: 'The left guard is loose.',
    assigneeID: s.assignee.id,
    dueDate: '2026-01-20',
    priority: 'High',
    ...overrides,
  };
}

async function raise(env: TestEnv, s: Setup, overrides: Record<string, unknown> = {}, cookie?: string) {
  const answer = await call(env, 'addAction', raiseBody(s, overrides), {
    cookie: cookie ?? s.team.evaluator.cookie,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.action as { id: number };
}

async function rowsOf(env: TestEnv, orgId: number) {
  const actions = await env.db
    .selectFrom('actions')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('id')
    .execute();
  const history = await env.db
    .selectFrom('action_history')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('id')
    .execute();
  return { actions, history };
}

const mailsTo = (env: TestEnv, email: string) => env.smtp.to(email);

describeEachDatabase('corrective actions', (env) => {
  // ------------------------------------------------------------------------------------------ add-action

  it('raises an action from a failed item, records it, and mails the assignee a link', async () => {
    const s = await setup(env);
    const answer = await call(
      env,
      'addAction',
      { ...raiseBody(s), timeZone: 'Europe/Paris' },
      {
        cookie: s.team.evaluator.cookie,
      },
    );
    expect(answer.status).toBe(200);
    const action = answer.body.action;
    expect(action).toEqual({
      id: expect.any(Number),
      title: 'Guards in place',
      description: 'The left guard is loose.',
      status: 'Open',
      priority: 'High',
      dueDate: '2026-01-20',
      isOverdue: false,
      boardID: s.board.id,
      boardName: 'Line One',
      evalID: s.failed.id,
      cardID: s.card.id,
      cardName: 'Press check',
      itemID: s.items.guards,
      assigneeID: s.assignee.id,
      assigneeName: s.assignee.email,
      raisedByName: s.team.evaluator.email,
      closeNote: null,
      createdTime: new Date(env.clock.now()).toISOString(),
      updatedTime: new Date(env.clock.now()).toISOString(),
      closedTime: null,
      isAssignee: false,
      isRaiser: true,
    });
    const { actions, history } = await rowsOf(env, s.team.org.id);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ time_zone: 'Europe/Paris', raised_by_id: s.team.evaluator.id });
    expect(history).toEqual([
      expect.objectContaining({ action_id: action.id, event: 'Raised', user_name: s.team.evaluator.email }),
    ]);
    const mail = mailsTo(env, s.assignee.email).at(-1)!;
    expect(mail.subject).toBe('Action assigned to you: Guards in place');
    expect(mail.text).toContain('Due: 2026-01-20 · Priority: High');
    expect(env.smtp.linkTo(s.assignee.email, '/home/actions/')).toBe(
      `http://checkboard.test/q/${encodeURIComponent(s.team.org.name)}/home/actions/${action.id}`,
    );
  });

  it('raises one during the evaluator’s own unfinished evaluation, from a Pass/Fail item of its card', async () => {
    const s = await setup(env);
    const open = await buildEvaluation(env, s.team.org, {
      board: s.board,
      card: s.card,
      user: s.team.evaluator,
      completedAt: null,
    });
    const action = await raise(env, s, { evalID: open.id, itemID: s.items.floor });
    expect(action).toMatchObject({ evalID: open.id, itemID: s.items.floor });
    // Another member's unfinished evaluation is hidden: not found, even to an administrator.
    const refused = await call(env, 'addAction', raiseBody(s, { evalID: open.id }), {
      cookie: s.team.admin.cookie,
    });
    expect(refused).toMatchObject({ status: 404, body: { errMsg: messages.evaluationNotFound } });
  });

  it('lets an administrator raise an action on the board without an evaluation; not an evaluator', async () => {
    const s = await setup(env);
    const before = await rowsOf(env, s.team.org.id);
    const body = raiseBody(s, { evalID: null, itemID: null, title: 'Repaint the floor markings' });
    const refused = await call(env, 'addAction', body, { cookie: s.team.evaluator.cookie });
    expect(refused).toMatchObject({ status: 403, body: { errMsg: messages.boardActionAdminsOnly } });
    expect(await rowsOf(env, s.team.org.id)).toEqual(before);
    const answer = await call(env, 'addAction', body, { cookie: s.team.admin.cookie });
    expect(answer.body.action).toMatchObject({
      evalID: null,
      cardID: null,
      itemID: null,
      boardName: 'Line One',
    });
  });

  it('refuses bad input with a clear message and writes nothing', async () => {
    const s = await setup(env);
    const other = await buildTeam(env);
    const before = await rowsOf(env, s.team.org.id);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ title: '   ' }, 400, actionMessages.titleLength],
      [{ title: 'x'.repeat(201) }, 400, actionMessages.titleLength],
      [{ description: 'x'.repeat(5001) }, 400, actionMessages.descriptionLength],
      [{ dueDate: '20-01-2026' }, 400, actionMessages.dueDate],
      [{ priority: 'Urgent' }, 400, ''],
      [{ itemID: s.items.floor }, 400, messages.notAFailedItem],
      [{ itemID: s.items.instruction }, 400, messages.notAFailedItem],
      [{ itemID: null }, 400, messages.itemNeeded],
      [{ evalID: null }, 400, messages.itemNeedsEvaluation],
      [{ assigneeID: s.team.viewer.id }, 400, messages.assignee],
      [{ assigneeID: other.admin.id }, 400, messages.assignee],
      [{ timeZone: 'Mars/Olympus' }, 400, messages.unknownTimeZone],
      [{ surprise: true }, 400, ''],
    ];
    for (const [overrides, status, errMsg] of cases) {
      const answer = await call(env, 'addAction', raiseBody(s, overrides), {
        cookie: s.team.evaluator.cookie,
      });
      expect(answer.status, JSON.stringify(overrides)).toBe(status);
      if (errMsg) expect(answer.body.errMsg, JSON.stringify(overrides)).toBe(errMsg);
      else expect(answer.body.errMsg).toEqual(expect.any(String));
    }
    expect(await rowsOf(env, s.team.org.id)).toEqual(before);
    expect(mailsTo(env, s.assignee.email)).toEqual([]);
  });

  it('answers another organisation’s board, evaluation and actions as not found, writing nothing', async () => {
    const s = await setup(env);
    const other = await setup(env);
    const theirs = await raise(env, other);
    const before = [await rowsOf(env, s.team.org.id), await rowsOf(env, other.team.org.id)];
    const cookie = s.team.owner.cookie;
    expect(await call(env, 'addAction', raiseBody(other), { cookie })).toMatchObject({ status: 404 });
    expect(await call(env, 'addAction', raiseBody(s, { evalID: other.failed.id }), { cookie })).toMatchObject(
      { status: 404, body: { errMsg: messages.evaluationNotFound } },
    );
    const edit = {
      actionID: theirs.id,
      title: 'Mine now',
      description: '',
      assigneeID: s.assignee.id,
      dueDate: '2026-02-01',
      priority: 'Low',
    };
    for (const [name, body] of [
      ['getAction', { actionID: theirs.id }],
      ['editAction', edit],
      ['completeAction', { actionID: theirs.id, note: 'Done' }],
      ['cancelAction', { actionID: theirs.id }],
    ] as const) {
      const answer = await call(env, name, body, { cookie });
      expect(answer, name).toMatchObject({ status: 404, body: { errMsg: messages.actionNotFound } });
      expect(JSON.stringify(answer.body)).not.toContain('Guards in place');
    }
    expect((await call(env, 'getActions', { scope: 'all' }, { cookie })).body.actions).toEqual([]);
    expect(await call(env, 'getBoardActionCounts', { boardID: other.board.id }, { cookie })).toMatchObject({
      status: 404,
    });
    expect([await rowsOf(env, s.team.org.id), await rowsOf(env, other.team.org.id)]).toEqual(before);
  });

  it('refuses every action call without a session (401) and to a viewer (403), writing nothing', async () => {
    const s = await setup(env);
    const action = await raise(env, s);
    const before = await rowsOf(env, s.team.org.id);
    const bodies = {
      addAction: raiseBody(s),
      editAction: {
        actionID: action.id,
        title: 'x',
        description: '',
        assigneeID: s.assignee.id,
        dueDate: '2026-02-01',
        priority: 'Low',
      },
      completeAction: { actionID: action.id, note: 'Fixed' },
      cancelAction: { actionID: action.id },
      getAction: { actionID: action.id },
      getActions: {},
      getActionsExcel: {},
      getActionAssignees: {},
      getBoardActionCounts: { boardID: s.board.id },
    } as const;
    for (const [name, body] of Object.entries(bodies) as [keyof typeof bodies, object][]) {
      expect(await call(env, name, body), name).toMatchObject({ status: 401 });
      expect(await call(env, name, body, { cookie: s.team.viewer.cookie }), name).toMatchObject({
        status: 403,
        body: { errMsg: 'Not authorized.' },
      });
    }
    expect(await rowsOf(env, s.team.org.id)).toEqual(before);
  });

  it('applies a retried add-action and complete-action once (same Idempotency-Key)', async () => {
    const s = await setup(env);
    const options = { cookie: s.team.evaluator.cookie, idempotencyKey: `raise-${s.failed.id}` };
    const first = await call(env, 'addAction', raiseBody(s), options);
    const retry = await call(env, 'addAction', raiseBody(s), options);
    expect(first.status).toBe(200);
    expect(retry).toMatchObject({ status: 200, body: first.body });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await rowsOf(env, s.team.org.id)).actions).toHaveLength(1);
    expect(mailsTo(env, s.assignee.email)).toHaveLength(1);

    const done = { cookie: s.assignee.cookie, idempotencyKey: `done-${first.body.action.id}` };
    const body = { actionID: first.body.action.id, note: 'Tightened the guard.' };
    const closed = await call(env, 'completeAction', body, done);
    const again = await call(env, 'completeAction', body, done);
    expect(closed.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: closed.body });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await rowsOf(env, s.team.org.id)).history.map((h) => h.event)).toEqual(['Raised', 'Done']);
  });

  // ------------------------------------------------------------------------------- seeing and changing

  it('shows an evaluator only the actions assigned to or raised by them; administrators all of them', async () => {
    const s = await setup(env);
    const mine = await raise(env, s);
    const bystander = await buildUser(env, s.team.org, { role: 'evaluator' });
    const bystanderCookie = await signIn(env, bystander);
    const adminsOwn = await raise(
      env,
      s,
      { assigneeID: s.team.owner.id, dueDate: '2026-01-18' },
      s.team.admin.cookie,
    );

    const ids = async (cookie: string, body: object = {}) =>
      ((await call(env, 'getActions', body, { cookie })).body.actions as { id: number }[]).map((a) => a.id);
    expect(await ids(s.team.evaluator.cookie)).toEqual([mine.id]);
    expect(await ids(s.assignee.cookie, { scope: 'all' })).toEqual([mine.id]);
    expect(await ids(bystanderCookie, { scope: 'all' })).toEqual([]);
    expect(await ids(s.team.admin.cookie)).toEqual([adminsOwn.id]);
    expect(await ids(s.team.admin.cookie, { scope: 'all' })).toEqual([adminsOwn.id, mine.id]);
    expect(await ids(s.team.owner.cookie, { scope: 'all', assigneeID: s.assignee.id })).toEqual([mine.id]);

    expect(await call(env, 'getAction', { actionID: mine.id }, { cookie: bystanderCookie })).toMatchObject({
      status: 404,
      body: { errMsg: messages.actionNotFound },
    });
    const seen = await call(env, 'getAction', { actionID: mine.id }, { cookie: s.assignee.cookie });
    expect(seen.body).toMatchObject({
      action: { id: mine.id, isAssignee: true, isRaiser: false },
      history: [{ event: 'Raised', userName: s.team.evaluator.email, changes: [], note: null }],
    });
  });

  it('lets the raiser edit an open action, recording each change; the assignee may not; a new assignee is mailed', async () => {
    const s = await setup(env);
    const action = await raise(env, s);
    const other = await buildUser(env, s.team.org, { role: 'admin' });
    const edit = {
      actionID: action.id,
      title: 'Guards refitted',
      description: 'The left guard is loose.',
      assigneeID: other.id,
      dueDate: '2026-01-25',
      priority: 'Medium',
    };
    const before = await rowsOf(env, s.team.org.id);
    const refused = await call(env, 'editAction', edit, { cookie: s.assignee.cookie });
    expect(refused).toMatchObject({ status: 403, body: { errMsg: messages.notYours } });
    expect(
      await call(env, 'cancelAction', { actionID: action.id }, { cookie: s.assignee.cookie }),
    ).toMatchObject({
      status: 403,
    });
    expect(await rowsOf(env, s.team.org.id)).toEqual(before);

    await env.db.updateTable('actions').set({ due_reminded_at: 1 }).where('id', '=', action.id).execute();
    env.clock.advance(MINUTE);
    const answer = await call(env, 'editAction', edit, { cookie: s.team.evaluator.cookie });
    expect(answer.body.action).toMatchObject({
      title: 'Guards refitted',
      assigneeName: other.email,
      priority: 'Medium',
    });
    const got = await call(env, 'getAction', { actionID: action.id }, { cookie: s.team.admin.cookie });
    expect(got.body.history.at(-1)).toMatchObject({
      event: 'Edited',
      userName: s.team.evaluator.email,
      changes: [
        { field: 'Title', from: 'Guards in place', to: 'Guards refitted' },
        { field: 'Assignee', from: s.assignee.email, to: other.email },
        { field: 'Due date', from: '2026-01-20', to: '2026-01-25' },
        { field: 'Priority', from: 'High', to: 'Medium' },
      ],
    });
    // The new due date gets its own reminders.
    const row = (await rowsOf(env, s.team.org.id)).actions[0]!;
    expect(row.due_reminded_at).toBeNull();
    expect(mailsTo(env, other.email).at(-1)?.subject).toBe('Action assigned to you: Guards refitted');
    // A new assignee alone also gets the reminders again; a new title does not.
    await env.db.updateTable('actions').set({ due_reminded_at: 1 }).where('id', '=', action.id).execute();
    await call(
      env,
      'editAction',
      { ...edit, title: 'Guards refitted twice' },
      { cookie: s.team.evaluator.cookie },
    );
    expect((await rowsOf(env, s.team.org.id)).actions[0]!.due_reminded_at).toBe(1);
    await call(
      env,
      'editAction',
      { ...edit, assigneeID: s.team.admin.id },
      { cookie: s.team.evaluator.cookie },
    );
    expect((await rowsOf(env, s.team.org.id)).actions[0]!.due_reminded_at).toBeNull();
    // The old assignee no longer sees it.
    expect(
      await call(env, 'getAction', { actionID: action.id }, { cookie: s.assignee.cookie }),
    ).toMatchObject({
      status: 404,
    });
  });

  it('closes as Done with a note (the assignee may), then refuses any further change', async () => {
    const s = await setup(env);
    const action = await raise(env, s);
    const empty = await call(
      env,
      'completeAction',
      { actionID: action.id, note: '  ' },
      { cookie: s.assignee.cookie },
    );
    expect(empty).toMatchObject({ status: 400, body: { errMsg: actionMessages.noteLength } });
    env.clock.advance(MINUTE);
    const done = await call(
      env,
      'completeAction',
      { actionID: action.id, note: 'Guard refitted and tested.' },
      { cookie: s.assignee.cookie },
    );
    expect(done.body.action, JSON.stringify(done.body)).toMatchObject({
      status: 'Done',
      closeNote: 'Guard refitted and tested.',
      closedTime: new Date(env.clock.now()).toISOString(),
      isOverdue: false,
    });
    const before = await rowsOf(env, s.team.org.id);
    for (const [name, body] of [
      ['completeAction', { actionID: action.id, note: 'Again' }],
      ['cancelAction', { actionID: action.id }],
      [
        'editAction',
        {
          actionID: action.id,
          title: 'x',
          description: '',
          assigneeID: s.assignee.id,
          dueDate: '2026-02-01',
          priority: 'Low',
        },
      ],
    ] as const) {
      expect(await call(env, name, body, { cookie: s.team.admin.cookie }), name).toMatchObject({
        status: 409,
        body: { errMsg: messages.closed },
      });
    }
    expect(await rowsOf(env, s.team.org.id)).toEqual(before);
  });

  it('lets an administrator cancel any action, with an optional note', async () => {
    const s = await setup(env);
    const action = await raise(env, s);
    const answer = await call(
      env,
      'cancelAction',
      { actionID: action.id, note: 'Duplicate' },
      {
        cookie: s.team.admin.cookie,
      },
    );
    expect(answer.body.action).toMatchObject({ status: 'Cancelled', closeNote: 'Duplicate' });
    const got = await call(env, 'getAction', { actionID: action.id }, { cookie: s.team.evaluator.cookie });
    expect(got.body.history.map((h: { event: string }) => h.event)).toEqual(['Raised', 'Cancelled']);
  });

  it('pages by due date then id with a keyset cursor, and filters by status, board and due range', async () => {
    env.clock.set(NOON_15_JAN);
    const s = await setup(env);
    const secondBoard = await buildBoard(env, s.team.org, { cardIds: [s.card.id] });
    const dates = ['2026-01-22', '2026-01-20', '2026-01-22', '2026-01-10', '2026-02-01'];
    const raised = [];
    for (const dueDate of dates) raised.push(await raise(env, s, { dueDate }));
    const onBoard = await raise(
      env,
      s,
      { boardID: secondBoard.id, evalID: null, itemID: null, dueDate: '2026-01-21' },
      s.team.admin.cookie,
    );
    const expected = [raised[3]!, raised[1]!, onBoard, raised[0]!, raised[2]!, raised[4]!].map((a) => a.id);
    const cookie = s.team.admin.cookie;
    const seen: number[] = [];
    let cursor: { previousDueDate?: string; previousID?: number } = {};
    for (let page = 0; page < 4; page++) {
      const answer = await call(env, 'getActions', { scope: 'all', quantity: 2, ...cursor }, { cookie });
      const actions = answer.body.actions as { id: number; dueDate: string }[];
      seen.push(...actions.map((a) => a.id));
      if (actions.length < 2) break;
      cursor = { previousDueDate: actions.at(-1)!.dueDate, previousID: actions.at(-1)!.id };
    }
    expect(seen).toEqual(expected);
    expect(await call(env, 'getActions', { previousID: 3 }, { cookie })).toMatchObject({
      status: 400,
      body: { errMsg: messages.cursorNeedsDate },
    });

    await call(env, 'completeAction', { actionID: raised[1]!.id, note: 'ok' }, { cookie });
    const ids = async (body: object) =>
      (
        (await call(env, 'getActions', { scope: 'all', ...body }, { cookie })).body.actions as {
          id: number;
        }[]
      ).map((a) => a.id);
    expect(await ids({ status: 'Done' })).toEqual([raised[1]!.id]);
    expect(await ids({ boardID: secondBoard.id })).toEqual([onBoard.id]);
    expect(await ids({ dueFrom: '2026-01-21', dueTo: '2026-01-22' })).toEqual([
      onBoard.id,
      raised[0]!.id,
      raised[2]!.id,
    ]);
    // Overdue: open and past its day (the fake clock is 2026-01-15 12:00 UTC).
    const all = (await call(env, 'getActions', { scope: 'all' }, { cookie })).body.actions as {
      id: number;
      isOverdue: boolean;
    }[];
    expect(all.filter((a) => a.isOverdue).map((a) => a.id)).toEqual([raised[3]!.id]);
  });

  it('counts open actions per card and evaluation of a board, for the board view', async () => {
    const s = await setup(env);
    const a1 = await raise(env, s);
    await raise(env, s);
    await raise(env, s, { evalID: null, itemID: null }, s.team.admin.cookie);
    await call(env, 'cancelAction', { actionID: a1.id }, { cookie: s.team.admin.cookie });
    const answer = await call(
      env,
      'getBoardActionCounts',
      { boardID: s.board.id },
      { cookie: s.team.viewer.cookie },
    );
    expect(answer.status).toBe(403);
    const counts = await call(
      env,
      'getBoardActionCounts',
      { boardID: s.board.id },
      { cookie: s.assignee.cookie },
    );
    expect(counts.body).toEqual({
      cards: [{ cardID: s.card.id, open: 1 }],
      evaluations: [{ evalID: s.failed.id, open: 1 }],
    });
  });

  it('keeps an action when its evaluation is deleted, without the link to it', async () => {
    const s = await setup(env);
    const action = await raise(env, s);
    expect(
      (await call(env, 'deleteEvaluation', { evalID: s.failed.id }, { cookie: s.team.evaluator.cookie }))
        .status,
    ).toBe(200);
    const got = await call(env, 'getAction', { actionID: action.id }, { cookie: s.team.evaluator.cookie });
    expect(got.body.action).toMatchObject({ evalID: null, cardName: 'Press check', status: 'Open' });
  });

  it('lists the members an action may be assigned to: evaluators and above, of the organisation', async () => {
    const s = await setup(env);
    const answer = await call(env, 'getActionAssignees', {}, { cookie: s.team.evaluator.cookie });
    const emails = (answer.body.assignees as { email: string }[]).map((a) => a.email).sort();
    expect(emails).toEqual(
      [s.team.owner.email, s.team.admin.email, s.team.evaluator.email, s.assignee.email].sort(),
    );
  });

  it('exports the filtered actions to Excel, one row each', async () => {
    env.clock.set(NOON_15_JAN);
    const s = await setup(env);
    await raise(env, s, { title: '=HYPERLINK("x")', dueDate: '2026-01-10' });
    await raise(env, s, { dueDate: '2026-01-30' });
    const answer = await call(
      env,
      'getActionsExcel',
      { scope: 'all', timeZone: 'UTC' },
      { cookie: s.team.admin.cookie },
    );
    expect(answer.status).toBe(200);
    expect(String(answer.headers['content-disposition'])).toMatch(
      /Checkboard_Actions_2026-01-15_12-00-00\.xlsx/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(answer.body as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).getCell(1).value).toBe('Due');
    expect(sheet.getRow(2).getCell(1).value).toBe('2026-01-10');
    expect(sheet.getRow(2).getCell(3).value).toBe('Yes');
    expect(sheet.getRow(2).getCell(5).value).toBe('=HYPERLINK("x")');
    expect(sheet.getRow(2).getCell(5).type).toBe(ExcelJS.ValueType.String);
    expect(sheet.getRow(3).getCell(9).value).toBe(s.assignee.email);
    // An evaluator's export holds only their own.
    const theirs = await call(
      env,
      'getActionsExcel',
      { scope: 'all' },
      { cookie: (await buildTeam(env)).evaluator.cookie },
    );
    const empty = new ExcelJS.Workbook();
    await empty.xlsx.load(theirs.body as ArrayBuffer);
    expect(empty.worksheets[0]!.rowCount).toBe(1);
  });

  // --------------------------------------------------------------------------------------- reminders

  it('reminds the assignee on the due day and once overdue, in the action’s time zone, once each', async () => {
    env.clock.set(NOON_15_JAN);
    const s = await setup(env);
    // The fake clock: 2026-01-15 12:00 UTC, already 2026-01-16 in Auckland.
    const today = await raise(env, s, { title: 'Due today', dueDate: '2026-01-15' });
    const auckland = await raise(env, s, {
      title: 'Due in Auckland',
      dueDate: '2026-01-16',
      timeZone: 'Pacific/Auckland',
    });
    const late = await raise(env, s, { title: 'Late one', dueDate: '2026-01-14' });
    const later = await raise(env, s, { title: 'Not yet', dueDate: '2026-01-16' });
    await call(env, 'completeAction', { actionID: late.id, note: 'ok' }, { cookie: s.assignee.cookie });
    const lateOpen = await raise(env, s, { title: 'Late and open', dueDate: '2026-01-13' });
    const mailed = () =>
      mailsTo(env, s.assignee.email)
        .map((m) => m.subject)
        .filter((subject) => !subject.startsWith('Action assigned'))
        .sort();

    // Two instances running at once: each reminder is claimed by one of them.
    const [one, two] = await Promise.all([
      sendActionReminders(env.services, env.clock.now()),
      sendActionReminders(env.services, env.clock.now()),
    ]);
    expect(one.failed + two.failed).toBe(0);
    expect(mailed()).toEqual([
      'Action due today: Due in Auckland',
      'Action due today: Due today',
      'Action overdue: Late and open',
    ]);
    await sendActionReminders(env.services, env.clock.now());
    expect(mailed()).toHaveLength(3);

    // The next day: "Due today" is overdue, "Not yet" is due; Auckland's is overdue too.
    const next = await sendActionReminders(env.services, env.clock.now() + DAY);
    expect(next.failed).toBe(0);
    expect(mailed()).toEqual(
      [
        'Action due today: Due in Auckland',
        'Action due today: Due today',
        'Action due today: Not yet',
        'Action overdue: Due in Auckland',
        'Action overdue: Due today',
        'Action overdue: Late and open',
      ].sort(),
    );
    expect(env.smtp.linkTo(s.assignee.email, '/home/actions/')).toMatch(/\/home\/actions\/\d+$/);
    void today;
    void auckland;
    void later;
    void lateOpen;
  });

  it('claims nothing and sends nothing while mail is not configured', async () => {
    env.clock.set(NOON_15_JAN);
    const s = await setup(env);
    const action = await raise(env, s, { dueDate: '2026-01-15' });
    const outcome = await sendActionReminders(
      { ...env.services, config: { ...env.services.config, smtpUrl: undefined } },
      env.clock.now(),
    );
    expect(outcome).toMatchObject({ due: 0, overdue: 0 });
    const row = await env.db
      .selectFrom('actions')
      .selectAll()
      .where('id', '=', action.id)
      .executeTakeFirstOrThrow();
    expect(row.due_reminded_at).toBeNull();
  });

  it('never reminds a deleted member', async () => {
    env.clock.set(NOON_15_JAN);
    const s = await setup(env);
    await raise(env, s, { dueDate: '2026-01-15' });
    await env.db
      .updateTable('users')
      .set({ deleted_at: env.clock.now() })
      .where('id', '=', s.assignee.id)
      .execute();
    await sendActionReminders(env.services, env.clock.now());
    expect(mailsTo(env, s.assignee.email).map((m) => m.subject)).toEqual([
      'Action assigned to you: Guards in place',
    ]);
  });
});
