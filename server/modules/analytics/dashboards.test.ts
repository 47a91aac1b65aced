import { expect, it } from 'vitest';
import type { DashboardSettingInput } from '../../../common/api/entities.ts';
import { complianceMessages, periodTooLongMessage } from '../../../common/api/entities.ts';
import { GRAPHS_PER_DASHBOARD_MAX } from '../../../common/constants.ts';
import { messages as rules } from '../../../common/validation.ts';
import { buildBoard, buildCard, buildEvaluation, buildTeam, unique } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { messages } from './service.ts';

const DAY = 24 * 60 * 60_000;

function setting(overrides: Partial<DashboardSettingInput> = {}): DashboardSettingInput {
  return {
    board_id: -1,
    card_id: -1,
    card_item_id: -1,
    start_number: 30,
    start_duration: 'Days',
    end_number: -1,
    end_duration: 'Days',
    time_division: 'Days',
    type: 'Line',
    graph_order: 0,
    ...overrides,
  };
}

/** A schedule compliance graph (decision 0704): per board unless a board is given. */
function compliance(overrides: Partial<DashboardSettingInput> = {}): DashboardSettingInput {
  return setting({
    report: 'ScheduleCompliance',
    time_division: 'Custom Interval',
    type: 'Bar',
    ...overrides,
  });
}

/** Everything the dashboard calls can change in one organisation, to check that nothing did. */
async function stateOf(env: TestEnv, orgId: number) {
  const [dashboards, settings] = await Promise.all([
    env.db.selectFrom('dashboards').selectAll().where('org_id', '=', orgId).orderBy('id').execute(),
    env.db.selectFrom('dashboard_settings').selectAll().where('org_id', '=', orgId).orderBy('id').execute(),
  ]);
  return { dashboards, settings };
}

describeEachDatabase('dashboards', (env) => {
  async function add(cookie: string, name: string, settings: DashboardSettingInput[] = []) {
    const answer = await call(env, 'addDashboard', { name, settings }, { cookie });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.dashboard as { id: number; name: string; isDefault: boolean; settings: unknown[] };
  }

  // ---------------------------------------------------------------------------------------- add-dashboard

  it('adds dashboards with their graphs in graph_order; the first is the default', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const board = await buildBoard(env, team.org, { cardIds: [card.id] });
    const graphs = [
      setting({ graph_order: 2, board_id: board.id, type: 'Bar' }),
      setting({
        graph_order: 1,
        board_id: board.id,
        card_id: card.id,
        card_item_id: card.itemIds[1]!,
        time_division: 'Weeks',
        start_number: 12,
        start_duration: 'Weeks',
        end_number: 1,
        end_duration: 'Weeks',
        type: 'Table',
      }),
    ];
    const answer = await call(
      env,
      'addDashboard',
      { name: '  Monday  ', settings: graphs },
      { cookie: team.admin.cookie },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      dashboard: {
        id: expect.any(Number),
        name: 'Monday',
        isDefault: true,
        settings: [
          { ...graphs[1], report: 'Evaluations', id: expect.any(Number) },
          { ...graphs[0], report: 'Evaluations', id: expect.any(Number) },
        ],
      },
    });
    const second = await add(team.owner.cookie, 'Wall screen', []);
    expect(second).toEqual({ id: expect.any(Number), name: 'Wall screen', isDefault: false, settings: [] });
    const rows = await stateOf(env, team.org.id);
    expect(rows.dashboards.map((d) => [d.name, d.is_default, d.created_at])).toEqual([
      ['Monday', 1, env.clock.now()],
      ['Wall screen', 0, env.clock.now()],
    ]);
    expect(rows.settings).toHaveLength(2);
  });

  it('refuses names outside 1-30 characters or with forbidden characters, and more than 24 graphs, writing nothing', async () => {
    const team = await buildTeam(env);
    await add(team.admin.cookie, 'Existing');
    const before = await stateOf(env, team.org.id);
    for (const name of ['x', 'y'.repeat(30)]) {
      expect(
        (await call(env, 'addDashboard', { name, settings: [] }, { cookie: team.admin.cookie })).status,
      ).toBe(200);
    }
    const after = await stateOf(env, team.org.id);
    const refusals: [unknown, string, string][] = [
      [{ name: '', settings: [] }, rules.shortNameLength, 'name'],
      [{ name: '   ', settings: [] }, rules.shortNameLength, 'name'],
      [{ name: 'z'.repeat(31), settings: [] }, rules.shortNameLength, 'name'],
      [{ name: 'Line/1', settings: [] }, 'Name contains invalid characters: /', 'name'],
      [
        { name: 'Too many', settings: Array.from({ length: GRAPHS_PER_DASHBOARD_MAX + 1 }, () => setting()) },
        `A dashboard can have at most ${GRAPHS_PER_DASHBOARD_MAX} graphs.`,
        'settings',
      ],
      [
        { name: 'Too far', settings: [setting({ start_number: 731, start_duration: 'Days' })] },
        periodTooLongMessage('Days'),
        'start_number',
      ],
      [
        { name: 'Too far', settings: [setting({ start_number: 11, start_duration: 'Years' })] },
        periodTooLongMessage('Years'),
        'start_number',
      ],
    ];
    for (const [body, errMsg, errField] of refusals) {
      const answer = await call(env, 'addDashboard', body as never, { cookie: team.admin.cookie });
      expect(answer, JSON.stringify(body).slice(0, 80)).toMatchObject({
        status: 400,
        body: { errMsg, errField },
      });
    }
    const unknownType = await call(
      env,
      'addDashboard',
      { name: 'Pie', settings: [{ ...setting(), type: 'Pie' }] } as never,
      { cookie: team.admin.cookie },
    );
    expect(unknownType.status).toBe(400);
    expect(await stateOf(env, team.org.id)).toEqual(after);
    expect(after.dashboards).toHaveLength(before.dashboards.length + 2);
    // 24 graphs are allowed.
    await add(
      team.admin.cookie,
      'Full',
      Array.from({ length: GRAPHS_PER_DASHBOARD_MAX }, (_, i) => setting({ graph_order: i })),
    );
  });

  it('answers another organisation’s board, card or item in a graph as not found, and an item off its card as refused', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const theirCard = await buildCard(env, other.org);
    const theirBoard = await buildBoard(env, other.org, { cardIds: [theirCard.id] });
    const card = await buildCard(env, team.org);
    const otherCard = await buildCard(env, team.org);
    const before = await stateOf(env, team.org.id);
    const cases: [DashboardSettingInput, number, string][] = [
      [setting({ board_id: theirBoard.id }), 404, messages.boardNotFound],
      [setting({ card_id: theirCard.id }), 404, messages.cardNotFound],
      [setting({ card_item_id: theirCard.itemIds[1]! }), 404, messages.itemNotFound],
      [setting({ card_id: card.id, card_item_id: otherCard.itemIds[1]! }), 400, messages.itemNotOnCard],
    ];
    for (const [graph, status, errMsg] of cases) {
      const added = await call(
        env,
        'addDashboard',
        { name: 'Mine', settings: [graph] },
        { cookie: team.admin.cookie },
      );
      expect(added).toMatchObject({ status, body: { errMsg } });
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  // ---------------------------------------------------------------------------------------- get-dashboards

  it('lists the organisation’s dashboards, the default first, never another organisation’s', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const first = await add(team.admin.cookie, 'First', [setting({ graph_order: 3 })]);
    const second = await add(team.admin.cookie, 'Second');
    await add(other.admin.cookie, 'Theirs');
    expect(
      (await call(env, 'setDefaultDashboard', { ID: second.id }, { cookie: team.owner.cookie })).status,
    ).toBe(200);
    const answer = await call(env, 'getDashboards', {}, { cookie: team.admin.cookie });
    expect(answer.status).toBe(200);
    expect(answer.body.dashboards).toEqual([
      { id: second.id, name: 'Second', isDefault: true, settings: [] },
      { id: first.id, name: 'First', isDefault: false, settings: first.settings },
    ]);
    const fresh = await buildTeam(env);
    expect(await call(env, 'getDashboards', {}, { cookie: fresh.owner.cookie })).toMatchObject({
      status: 200,
      body: { dashboards: [] },
    });
  });

  // ---------------------------------------------------------------------------------------- edit-dashboard

  it('renames a dashboard and replaces its graphs; refuses bad input and another organisation’s dashboard', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const dashboard = await add(team.admin.cookie, 'Before', [setting(), setting({ graph_order: 1 })]);
    const theirs = await add(other.admin.cookie, 'Theirs');
    const graphs = [setting({ time_division: 'Custom Interval', type: 'Bar' })];
    const answer = await call(
      env,
      'editDashboard',
      { id: dashboard.id, name: 'After', settings: graphs },
      { cookie: team.admin.cookie },
    );
    expect(answer).toMatchObject({ status: 200, body: { dashboardID: dashboard.id } });
    const listed = await call(env, 'getDashboards', {}, { cookie: team.admin.cookie });
    expect(listed.body.dashboards).toEqual([
      {
        id: dashboard.id,
        name: 'After',
        isDefault: true,
        settings: [{ ...graphs[0], report: 'Evaluations', id: expect.any(Number) }],
      },
    ]);

    const before = await stateOf(env, team.org.id);
    const theirsBefore = await stateOf(env, other.org.id);
    const refusals: [unknown, number, string][] = [
      [{ id: theirs.id, name: 'Taken', settings: [] }, 404, messages.dashboardNotFound],
      [{ id: theirs.id + 1000, name: 'Nowhere', settings: [] }, 404, messages.dashboardNotFound],
      [{ id: dashboard.id, name: 'q'.repeat(31), settings: [] }, 400, rules.shortNameLength],
      [
        { id: dashboard.id, name: 'Many', settings: Array.from({ length: 25 }, () => setting()) },
        400,
        `A dashboard can have at most ${GRAPHS_PER_DASHBOARD_MAX} graphs.`,
      ],
      [
        { id: dashboard.id, name: 'Far', settings: [setting({ end_number: 105, end_duration: 'Weeks' })] },
        400,
        periodTooLongMessage('Weeks'),
      ],
    ];
    for (const [body, status, errMsg] of refusals) {
      expect(await call(env, 'editDashboard', body as never, { cookie: team.admin.cookie })).toMatchObject({
        status,
        body: { errMsg },
      });
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
    expect(await stateOf(env, other.org.id)).toEqual(theirsBefore);
  });

  // ---------------------------------------------------------------------------------------- set-default-dashboard

  it('sets the default dashboard, leaving exactly one; another organisation’s is not found', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const first = await add(team.admin.cookie, 'First');
    const second = await add(team.admin.cookie, 'Second');
    const theirs = await add(other.admin.cookie, 'Theirs');
    expect(
      await call(env, 'setDefaultDashboard', { ID: second.id }, { cookie: team.admin.cookie }),
    ).toMatchObject({
      status: 200,
      body: { dashboardID: second.id },
    });
    // Setting the default again changes nothing.
    expect(
      await call(env, 'setDefaultDashboard', { ID: second.id }, { cookie: team.admin.cookie }),
    ).toMatchObject({
      status: 200,
      body: { dashboardID: second.id },
    });
    const rows = await stateOf(env, team.org.id);
    expect(rows.dashboards.map((d) => [d.id, d.is_default])).toEqual([
      [first.id, 0],
      [second.id, 1],
    ]);
    const theirsBefore = await stateOf(env, other.org.id);
    expect(
      await call(env, 'setDefaultDashboard', { ID: theirs.id }, { cookie: team.admin.cookie }),
    ).toMatchObject({
      status: 404,
      body: { errMsg: messages.dashboardNotFound },
    });
    expect(
      await call(env, 'setDefaultDashboard', { ID: 'x' } as never, { cookie: team.admin.cookie }),
    ).toMatchObject({
      status: 400,
    });
    expect(await stateOf(env, team.org.id)).toEqual(rows);
    expect(await stateOf(env, other.org.id)).toEqual(theirsBefore);
  });

  // ---------------------------------------------------------------------------------------- delete-dashboard

  it('deletes a dashboard with its graphs; deleting the default makes the oldest remaining one the default', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const first = await add(team.admin.cookie, 'First', [setting()]);
    const second = await add(team.admin.cookie, 'Second', [setting()]);
    const third = await add(team.admin.cookie, 'Third');
    const theirs = await add(other.admin.cookie, 'Theirs', [setting()]);

    expect(
      await call(env, 'deleteDashboard', { ID: second.id }, { cookie: team.admin.cookie }),
    ).toMatchObject({
      status: 200,
      body: { id: second.id },
    });
    let rows = await stateOf(env, team.org.id);
    expect(rows.dashboards.map((d) => [d.id, d.is_default])).toEqual([
      [first.id, 1],
      [third.id, 0],
    ]);
    expect(rows.settings.map((s) => s.dashboard_id)).toEqual([first.id]);

    expect(await call(env, 'deleteDashboard', { ID: first.id }, { cookie: team.owner.cookie })).toMatchObject(
      {
        status: 200,
        body: { id: first.id },
      },
    );
    rows = await stateOf(env, team.org.id);
    expect(rows.dashboards.map((d) => [d.id, d.is_default])).toEqual([[third.id, 1]]);
    expect(rows.settings).toEqual([]);

    const theirsBefore = await stateOf(env, other.org.id);
    for (const ID of [theirs.id, first.id]) {
      expect(await call(env, 'deleteDashboard', { ID }, { cookie: team.admin.cookie })).toMatchObject({
        status: 404,
        body: { errMsg: messages.dashboardNotFound },
      });
    }
    expect(await stateOf(env, other.org.id)).toEqual(theirsBefore);
    expect(await stateOf(env, team.org.id)).toEqual(rows);

    expect((await call(env, 'deleteDashboard', { ID: third.id }, { cookie: team.admin.cookie })).status).toBe(
      200,
    );
    expect((await stateOf(env, team.org.id)).dashboards).toEqual([]);
    // The next one is the default again.
    expect((await add(team.admin.cookie, 'Again')).isDefault).toBe(true);
  });

  // ---------------------------------------------------------------------------------------- access and retries

  it('refuses every call without a session (401) and to Viewers and Evaluators (403), writing nothing', async () => {
    const team = await buildTeam(env);
    const dashboard = await add(team.admin.cookie, 'Guarded', [setting()]);
    const before = await stateOf(env, team.org.id);
    const calls: [string, Record<string, unknown>][] = [
      ['getDashboards', {}],
      ['getBoardsCardsAndItems', { startDateTime: new Date(env.clock.now()).toISOString() }],
      ['addDashboard', { name: 'Mine', settings: [] }],
      ['editDashboard', { id: dashboard.id, name: 'Mine', settings: [] }],
      ['setDefaultDashboard', { ID: dashboard.id }],
      ['deleteDashboard', { ID: dashboard.id }],
      ['getReport', { setting: setting(), timeZone: 'Europe/London' }],
    ];
    for (const [name, body] of calls) {
      expect(await call(env, name as never, body), name).toMatchObject({ status: 401 });
      for (const member of [team.viewer, team.evaluator]) {
        expect(
          await call(env, name as never, body, { cookie: member.cookie }),
          `${name} ${member.role}`,
        ).toMatchObject({
          status: 403,
          body: { errMsg: 'Not authorized.' },
        });
      }
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  it('applies a retried add, edit, set-default or delete once, answering the retry as the first time', async () => {
    const team = await buildTeam(env);
    const key = () => unique('key-');
    const addKey = key();
    const first = await call(
      env,
      'addDashboard',
      { name: 'Once', settings: [setting()] },
      { cookie: team.admin.cookie, idempotencyKey: addKey },
    );
    const retry = await call(
      env,
      'addDashboard',
      { name: 'Once', settings: [setting()] },
      { cookie: team.admin.cookie, idempotencyKey: addKey },
    );
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await stateOf(env, team.org.id)).dashboards).toHaveLength(1);
    const id = first.body.dashboard.id as number;
    const other = await add(team.admin.cookie, 'Other');

    const editKey = key();
    for (let i = 0; i < 2; i++) {
      const edited = await call(
        env,
        'editDashboard',
        { id, name: 'Twice', settings: [setting(), setting()] },
        { cookie: team.admin.cookie, idempotencyKey: editKey },
      );
      expect(edited).toMatchObject({ status: 200, body: { dashboardID: id } });
    }
    expect((await stateOf(env, team.org.id)).settings.filter((s) => s.dashboard_id === id)).toHaveLength(2);

    const defaultKey = key();
    for (let i = 0; i < 2; i++) {
      expect(
        await call(
          env,
          'setDefaultDashboard',
          { ID: other.id },
          { cookie: team.admin.cookie, idempotencyKey: defaultKey },
        ),
      ).toMatchObject({ status: 200, body: { dashboardID: other.id } });
    }

    const deleteKey = key();
    for (let i = 0; i < 2; i++) {
      expect(
        await call(
          env,
          'deleteDashboard',
          { ID: other.id },
          { cookie: team.admin.cookie, idempotencyKey: deleteKey },
        ),
      ).toMatchObject({ status: 200, body: { id: other.id } });
    }
    const rows = await stateOf(env, team.org.id);
    expect(rows.dashboards.map((d) => [d.id, d.name, d.is_default])).toEqual([[id, 'Twice', 1]]);
  });

  // ---------------------------------------------------------------------------------------- compliance graphs

  it('saves schedule compliance graphs with the dashboard, per board or per card of one board, and lists them', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const board = await buildBoard(env, team.org, { cardIds: [card.id] });
    const graphs = [
      compliance({ start_number: 365, start_duration: 'Days' }),
      compliance({
        graph_order: 1,
        board_id: board.id,
        type: 'Table',
        start_number: 11,
        start_duration: 'Months',
      }),
      setting({ graph_order: 2, report: 'Evaluations' }),
    ];
    const added = await add(team.admin.cookie, 'Compliance', graphs);
    expect(added.settings).toEqual(graphs.map((g) => ({ ...g, id: expect.any(Number) })));
    const rows = await stateOf(env, team.org.id);
    expect(rows.settings.map((r) => [r.report, r.board_id, r.time_division, r.type])).toEqual([
      ['ScheduleCompliance', -1, 'Custom Interval', 'Bar'],
      ['ScheduleCompliance', board.id, 'Custom Interval', 'Table'],
      ['Evaluations', -1, 'Days', 'Line'],
    ]);

    // Edited: a graph keeps its report when the dashboard is saved again; an absent report is Evaluations.
    const edited = [
      compliance({ board_id: board.id, start_number: 51, start_duration: 'Weeks' }),
      setting({ graph_order: 1 }),
    ];
    expect(
      await call(
        env,
        'editDashboard',
        { id: added.id, name: 'Compliance', settings: edited },
        { cookie: team.admin.cookie },
      ),
    ).toMatchObject({ status: 200, body: { dashboardID: added.id } });
    const listed = await call(env, 'getDashboards', {}, { cookie: team.admin.cookie });
    expect(listed.body.dashboards).toEqual([
      {
        id: added.id,
        name: 'Compliance',
        isDefault: true,
        settings: [
          { ...edited[0], id: expect.any(Number) },
          { ...edited[1], report: 'Evaluations', id: expect.any(Number) },
        ],
      },
    ]);
  });

  it('refuses a compliance graph over too long a period, by time, across cards or items, or as a line, and another organisation’s board, writing nothing', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const board = await buildBoard(env, team.org, { cardIds: [card.id] });
    const theirBoard = await buildBoard(env, other.org);
    const dashboard = await add(team.admin.cookie, 'Kept', [compliance()]);
    const before = await stateOf(env, team.org.id);
    const theirsBefore = await stateOf(env, other.org.id);
    const refusals: [DashboardSettingInput, number, string, string?][] = [
      [
        compliance({ start_number: 366, start_duration: 'Days' }),
        400,
        complianceMessages.period,
        'start_number',
      ],
      [
        compliance({ start_number: 52, start_duration: 'Weeks' }),
        400,
        complianceMessages.period,
        'start_number',
      ],
      [
        compliance({ start_number: 12, start_duration: 'Months' }),
        400,
        complianceMessages.period,
        'start_number',
      ],
      [
        compliance({ start_number: 4, start_duration: 'Quarters' }),
        400,
        complianceMessages.period,
        'start_number',
      ],
      [
        compliance({ start_number: 1, start_duration: 'Years' }),
        400,
        complianceMessages.period,
        'start_number',
      ],
      [compliance({ time_division: 'Weeks' }), 400, complianceMessages.division, 'time_division'],
      [compliance({ board_id: board.id, card_id: card.id }), 400, complianceMessages.target, 'card_id'],
      [
        compliance({ board_id: board.id, card_id: card.id, card_item_id: card.itemIds[1]! }),
        400,
        complianceMessages.target,
        'card_id',
      ],
      [compliance({ type: 'Line' }), 400, complianceMessages.type, 'type'],
      [compliance({ board_id: theirBoard.id }), 404, messages.boardNotFound],
    ];
    for (const [graph, status, errMsg, errField] of refusals) {
      for (const [name, body] of [
        ['addDashboard', { name: 'Refused', settings: [graph] }],
        ['editDashboard', { id: dashboard.id, name: 'Refused', settings: [graph] }],
      ] as const) {
        const answer = await call(env, name, body, { cookie: team.admin.cookie });
        expect(answer, `${name} ${JSON.stringify(graph)}`).toMatchObject({
          status,
          body: errField ? { errMsg, errField } : { errMsg },
        });
      }
    }
    const unknown = await call(
      env,
      'addDashboard',
      { name: 'Unknown', settings: [{ ...compliance(), report: 'Heatmap' }] } as never,
      { cookie: team.admin.cookie },
    );
    expect(unknown.status).toBe(400);
    expect(await stateOf(env, team.org.id)).toEqual(before);
    expect(await stateOf(env, other.org.id)).toEqual(theirsBefore);
  });

  it('leaves get-report to SPEC’s settings: a setting naming its report is refused there', async () => {
    const team = await buildTeam(env);
    for (const report of ['ScheduleCompliance', 'Evaluations']) {
      const answer = await call(
        env,
        'getReport',
        {
          setting: { ...setting({ time_division: 'Custom Interval' }), report },
          timeZone: 'Europe/London',
        } as never,
        { cookie: team.admin.cookie },
      );
      expect(answer.status, report).toBe(400);
      expect(answer.body.errMsg).toEqual(expect.any(String));
    }
    expect(
      await call(
        env,
        'getReport',
        { setting: setting({ time_division: 'Custom Interval' }), timeZone: 'Europe/London' },
        { cookie: team.admin.cookie },
      ),
    ).toMatchObject({ status: 200, body: { report: { mode: 'CustomIntervalBoards' } } });
  });

  it('applies a retried add of a compliance graph once, and refuses it without a session or to Viewers and Evaluators', async () => {
    const team = await buildTeam(env);
    const idempotencyKey = unique('key-');
    const body = { name: 'Once', settings: [compliance()] };
    const first = await call(env, 'addDashboard', body, { cookie: team.admin.cookie, idempotencyKey });
    const retry = await call(env, 'addDashboard', body, { cookie: team.admin.cookie, idempotencyKey });
    expect(first.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const after = await stateOf(env, team.org.id);
    expect(after.settings.map((s) => s.report)).toEqual(['ScheduleCompliance']);
    expect(await call(env, 'addDashboard', body)).toMatchObject({ status: 401 });
    for (const member of [team.viewer, team.evaluator])
      expect(await call(env, 'addDashboard', body, { cookie: member.cookie })).toMatchObject({
        status: 403,
        body: { errMsg: 'Not authorized.' },
      });
    expect(await stateOf(env, team.org.id)).toEqual(after);
  });

  // ---------------------------------------------------------------------------------------- get-boards-cards-and-items

  it('lists boards, cards and items, with those deleted since the given time, never another organisation’s', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    await buildCard(env, other.org, { name: 'Their card' });
    const live = await buildCard(env, team.org, { name: 'A live card' });
    const gone = await buildCard(env, team.org, { name: 'B gone card' });
    const old = await buildCard(env, team.org, { name: 'C old card' });
    const board = await buildBoard(env, team.org, { name: 'Line 1', cardIds: [live.id, gone.id] });
    const removed = await buildBoard(env, team.org, { name: 'Line 2', cardIds: [live.id] });
    const ancient = await buildBoard(env, team.org, { name: 'Line 3' });
    // An evaluation on the board deleted later names the card it measured.
    await buildEvaluation(env, team.org, { board: removed, card: live, user: team.evaluator });
    const admin = team.admin.cookie;
    // Deleted long ago: the old card and board; recently: the other card and board, and an item.
    env.clock.advance(-40 * DAY);
    await call(env, 'deleteCard', { id: old.id }, { cookie: admin });
    await call(env, 'deleteBoard', { id: ancient.id }, { cookie: admin });
    env.clock.advance(40 * DAY);
    const since = env.clock.now() - 31 * DAY;
    expect((await call(env, 'deleteCard', { id: gone.id }, { cookie: admin })).status).toBe(200);
    expect((await call(env, 'deleteBoard', { id: removed.id }, { cookie: admin })).status).toBe(200);
    expect((await call(env, 'deleteCardItem', { id: live.itemIds[0]! }, { cookie: admin })).status).toBe(200);

    const answer = await call(
      env,
      'getBoardsCardsAndItems',
      { startDateTime: new Date(since).toISOString() },
      { cookie: admin },
    );
    expect(answer.status).toBe(200);
    const { boards, cards } = answer.body.boardsCardsAndItems;
    expect(boards).toEqual([
      { id: board.id, name: 'Line 1', isDeleted: false, cardIDs: [live.id] },
      { id: removed.id, name: 'Line 2', isDeleted: true, cardIDs: [live.id] },
    ]);
    expect(cards.map((c: { name: string; isDeleted: boolean }) => [c.name, c.isDeleted])).toEqual([
      ['A live card', false],
      ['B gone card', true],
    ]);
    expect(cards[0].cardItems).toEqual([
      {
        id: live.itemIds[0],
        type: 'instruction',
        content: '<p>Check the line is clear.</p>',
        isDeleted: true,
      },
      { id: live.itemIds[1], type: 'pass_fail', content: '<p>Guards in place</p>', isDeleted: false },
      { id: live.itemIds[2], type: 'pass_fail', content: '<p>Floor is dry</p>', isDeleted: false },
    ]);
    expect(
      await call(env, 'getBoardsCardsAndItems', { startDateTime: 'yesterday' } as never, { cookie: admin }),
    ).toMatchObject({ status: 400, body: { errField: 'startDateTime' } });
  });
});
