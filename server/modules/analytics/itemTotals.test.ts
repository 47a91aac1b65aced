/**
 * item_totals (migration 0027, decision 0627): kept exact on every path that writes or deletes a completed
 * evaluation's results, with the completions pending until a fold (decision 0751), equal to what the
 * migration's backfill recounts, and get-report's item figures from it (pending ones added) equal to sums
 * over every result row, in several zones.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { DashboardSettingInput } from '../../../common/api/entities.ts';
import { BACKFILL_ITEM_TOTALS, ITEM_UNITS } from '../../db/migrations/0027_item_totals.ts';
import { foldAllItemTotals } from '../../jobs/itemTotalsFold.ts';
import { foldItemTotals } from '../shared/itemCounts.ts';
import { buildBoard, buildCard, buildEvaluation, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SLOT = 15 * MINUTE;
const at = (iso: string) => Date.parse(iso);

function setting(overrides: Partial<DashboardSettingInput> = {}): DashboardSettingInput {
  return {
    board_id: -1,
    card_id: -1,
    card_item_id: -1,
    start_number: 7,
    start_duration: 'Days',
    end_number: -1,
    end_duration: 'Days',
    time_division: 'Days',
    type: 'Line',
    graph_order: 0,
    ...overrides,
  };
}

interface ResultRow {
  board_id: number;
  card_id: number;
  completed_at: number;
  item_id: number;
  item_type: string;
  pass: number | null;
  na: number;
}

/** Every result of a completed evaluation of the organisation, with its evaluation's board, card and time. */
async function allResults(env: Pick<TestEnv, 'db'>, orgId: number): Promise<ResultRow[]> {
  const rows = await env.db
    .selectFrom('results')
    .innerJoin('evaluations', 'evaluations.id', 'results.evaluation_id')
    .select([
      'evaluations.board_id',
      'evaluations.card_id',
      'evaluations.completed_at',
      'results.item_id',
      'results.item_type',
      'results.pass',
      'results.na',
    ])
    .where('results.org_id', '=', orgId)
    .where('evaluations.completed_at', 'is not', null)
    .execute();
  return rows.map((r) => ({
    board_id: Number(r.board_id),
    card_id: Number(r.card_id),
    completed_at: Number(r.completed_at),
    item_id: Number(r.item_id),
    item_type: r.item_type,
    pass: r.pass === null ? null : Number(r.pass),
    na: Number(r.na),
  }));
}

/**
 * item_totals as stored, each key's shards summed (decision 0746; keys emptied by deletions dropped), and as
 * recounted here from every result.
 */
async function totalsAgainstResults(env: Pick<TestEnv, 'db'>, orgId: number) {
  const stored = (
    await env.db
      .selectFrom('item_totals')
      .select(['board_id', 'item_id', 'unit', 'slot', 'kind'])
      .select((eb) => [
        eb.fn.sum<number>('passed').as('passed'),
        eb.fn.sum<number>('failed').as('failed'),
        eb.fn.sum<number>('na').as('na'),
        eb.fn.sum<number>('answers').as('answers'),
      ])
      .where('org_id', '=', orgId)
      .groupBy(['board_id', 'item_id', 'unit', 'slot', 'kind'])
      .having((eb) =>
        eb.or(
          (['passed', 'failed', 'na', 'answers'] as const).map((column) => eb(eb.fn.sum(column), '!=', 0)),
        ),
      )
      .execute()
  )
    .map(
      (r) =>
        `${r.board_id}/${r.item_id}/${r.unit}/${r.slot}/${r.kind}: ${r.passed} ${r.failed} ${r.na} ${r.answers}`,
    )
    .sort();
  const results = await allResults(env, orgId);
  const tally = new Map<string, number[]>();
  for (const r of results) {
    const kind = r.item_type === 'pass_fail' ? 1 : 0;
    const add = [r.na === 0 && r.pass === 1, r.na === 0 && r.pass === 0, r.na === 1, true].map(Number);
    // Another item's answer is kept only when it counts something.
    if (kind === 0 && add[0]! + add[1]! + add[2]! === 0) continue;
    const quarter = Math.floor(r.completed_at / SLOT);
    for (const board of [r.board_id, 0])
      for (const [unit, size] of ITEM_UNITS.entries()) {
        const key = `${board}/${r.item_id}/${unit}/${Math.floor(quarter / size)}/${kind}`;
        const t = tally.get(key) ?? [0, 0, 0, 0];
        add.forEach((v, i) => (t[i]! += v));
        tally.set(key, t);
      }
  }
  const recounted = [...tally].map(([key, t]) => `${key}: ${t.join(' ')}`).sort();
  return { stored, recounted, results: results.length };
}

describeEachDatabase('item_totals', (env) => {
  async function report(cookie: string, s: DashboardSettingInput, timeZone: string) {
    const answer = await call(env, 'getReport', { setting: s, timeZone }, { cookie });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.report as {
      from: string;
      measure: string;
      rows: { id: number | null; start: string | null; passed: number; failed: number; na: number }[];
    };
  }

  async function setup() {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, {
      items: [
        { type: 'instruction', content: '<p>Read</p>' },
        { type: 'pass_fail', content: '<p>Guards</p>' },
        { type: 'pass_fail', content: '<p>Floor</p>', na: true },
        { type: 'text', content: '<p>Operator</p>', na: true },
      ],
    });
    const board = await buildBoard(env, team.org, { name: 'Line A', cardIds: [card.id], hasAnonymous: true });
    const second = await buildBoard(env, team.org, { name: 'Line B', cardIds: [card.id] });
    return { team, card, board, second };
  }

  const answers = (
    card: { itemIds: number[] },
    guards: boolean,
    floor: boolean | 'na',
    operatorNa = false,
  ) => [
    { item_id: card.itemIds[1]!, pass: guards },
    floor === 'na' ? { item_id: card.itemIds[2]!, na: true } : { item_id: card.itemIds[2]!, pass: floor },
    operatorNa ? { item_id: card.itemIds[3]!, na: true } : { item_id: card.itemIds[3]!, text_result: 'Sam' },
  ];

  const pending = async () =>
    (await env.db.selectFrom('item_totals_pending').select('evaluation_id').execute()).map((r) =>
      Number(r.evaluation_id),
    );

  /** Folds what is pending; then item_totals alone is every completed evaluation's results, counted once. */
  async function expectExact(orgId: number) {
    await foldAllItemTotals(env.db);
    expect(await pending()).toEqual([]);
    const totals = await totalsAgainstResults(env, orgId);
    expect(totals.stored).toEqual(totals.recounted);
    return totals;
  }

  it('stays exact through add-results, anonymous and offline completion, item edits, deletions of every kind and maintenance, as the backfill recounts it', async () => {
    env.clock.set(at('2026-03-01T09:52:00Z'));
    const { team, card, board, second } = await setup();
    const cookie = team.evaluator.cookie;
    const complete = async (
      boardId: number,
      results: ReturnType<typeof answers>,
      extra: Record<string, unknown> = {},
    ) => {
      const started = await call(env, 'addEvaluation', { boardID: boardId, cardID: card.id }, { cookie });
      expect(started.status).toBe(200);
      const done = await call(env, 'addResults', { evalID: started.body.id, results, ...extra }, { cookie });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      return started.body.id as number;
    };
    const ids: number[] = [];
    ids.push(await complete(board.id, answers(card, true, 'na', true)));
    env.clock.advance(7 * MINUTE);
    ids.push(await complete(second.id, answers(card, false, true)));
    // The next hour.
    env.clock.advance(10 * MINUTE);
    ids.push(await complete(board.id, answers(card, true, false, true)));
    env.clock.advance(10 * MINUTE);
    ids.push(await complete(second.id, answers(card, false, 'na', true)));
    // Captured offline two days ago (decision 0730): counted at the device's time.
    const offline = await complete(board.id, answers(card, false, 'na'), {
      deviceCompletedTime: new Date(env.clock.now() - 2 * DAY - 5 * MINUTE).toISOString(),
    });
    // A retried completion and an unfinished evaluation count nothing.
    expect(
      (await call(env, 'addResults', { evalID: ids[0]!, results: answers(card, false, false) }, { cookie }))
        .status,
    ).toBe(409);
    await call(env, 'addEvaluation', { boardID: board.id, cardID: card.id }, { cookie });
    // Completed, each is pending: item_totals has nothing yet.
    expect(await pending()).toEqual([...ids, offline].sort((a, b) => a - b));
    expect((await totalsAgainstResults(env, team.org.id)).stored).toEqual([]);
    let totals = await expectExact(team.org.id);
    expect(totals.stored.length).toBeGreaterThan(0);
    // Offline: the quarter-hour two days before is there.
    const offlineQuarter = Math.floor((env.clock.now() - 2 * DAY - 5 * MINUTE) / SLOT);
    expect(totals.stored.some((line) => line.includes(`/0/${offlineQuarter}/1:`))).toBe(true);

    // Anonymous completion (and below, deletion) with the board's key.
    const key = await call(
      env,
      'getAnonymousEvaluationKey',
      { boardID: board.id },
      { cookie: team.viewer.cookie },
    );
    expect(key.status).toBe(200);
    const fields = { orgName: team.org.name, boardID: board.id, anonKey: key.body.key };
    const anonStarted = await call(env, 'addEvaluationAnon', { ...fields, cardID: card.id });
    expect(anonStarted.status).toBe(200);
    const anonId: number = anonStarted.body.id;
    expect(
      (
        await call(env, 'addResultsAnon', {
          ...fields,
          evalID: anonId,
          results: answers(card, false, false, true),
        })
      ).status,
    ).toBe(200);
    const before = (await expectExact(team.org.id)).stored;

    // Editing an item (its type too) or deleting it leaves the answers already given, and their totals.
    const edit = await call(
      env,
      'editCardItem',
      { id: card.itemIds[2]!, type: 'text', content: '<p>Floor</p>', na: true, order: 2 },
      { cookie: team.admin.cookie },
    );
    expect(edit.status).toBe(200);
    expect(
      (await call(env, 'deleteCardItem', { id: card.itemIds[1]! }, { cookie: team.admin.cookie })).status,
    ).toBe(200);
    totals = await expectExact(team.org.id);
    expect(totals.stored).toEqual(before);

    // Deletions: the evaluator's own, an administrator's of another's, the same one again, an anonymous one,
    // and one not yet folded, which only leaves the pending list.
    const late = await complete(board.id, [
      { item_id: card.itemIds[2]!, na: true },
      { item_id: card.itemIds[3]!, text_result: 'Sam' },
    ]);
    expect(await pending()).toEqual([late]);
    const folded = (await totalsAgainstResults(env, team.org.id)).stored;
    expect((await call(env, 'deleteEvaluation', { evalID: late }, { cookie })).status).toBe(200);
    expect(await pending()).toEqual([]);
    expect((await totalsAgainstResults(env, team.org.id)).stored).toEqual(folded);
    expect((await call(env, 'deleteEvaluation', { evalID: ids[1]! }, { cookie })).status).toBe(200);
    expect(
      (await call(env, 'deleteEvaluation', { evalID: offline }, { cookie: team.admin.cookie })).status,
    ).toBe(200);
    expect(
      (await call(env, 'deleteEvaluation', { evalID: ids[1]! }, { cookie: team.admin.cookie })).status,
    ).toBe(404);
    expect(
      (await call(env, 'deleteEvaluationAnon', { ...fields, cardID: card.id, evalID: anonId })).status,
    ).toBe(200);
    totals = await expectExact(team.org.id);
    expect(totals.results).toBe(3 * 4);

    // Maintenance purges only unfinished evaluations, which have no results.
    env.clock.advance(2 * DAY);
    const { runMaintenance } = await import('../../jobs/maintenance.ts');
    await runMaintenance(env.services);
    totals = await expectExact(team.org.id);

    // The migration's backfill, run on the emptied table, gives the same rows.
    await env.db.deleteFrom('item_totals').execute();
    expect((await totalsAgainstResults(env, team.org.id)).stored).toEqual([]);
    for (const statement of BACKFILL_ITEM_TOTALS) await sql.raw(statement).execute(env.db);
    expect((await totalsAgainstResults(env, team.org.id)).stored).toEqual(totals.recounted);
  });

  it('stays exact when completions and deletions race, a completion and a deletion of the same evaluation included', async () => {
    env.clock.set(at('2026-05-04T10:00:00Z'));
    const { team, card, board, second } = await setup();
    const cookie = team.admin.cookie;
    const start = async (i: number) =>
      (
        await call(
          env,
          'addEvaluation',
          { boardID: i % 2 ? board.id : second.id, cardID: card.id },
          { cookie },
        )
      ).body.id as number;
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await start(i));
    // Folds of a few at a time race the completions and one another (decision 0751).
    const folds = () => Promise.all([foldItemTotals(env.db, 2), foldItemTotals(env.db, 3)]);
    const completions = await Promise.all(
      ids.map((evalID, i) =>
        call(
          env,
          'addResults',
          { evalID, results: answers(card, i % 3 !== 0, i % 2 ? 'na' : true) },
          { cookie },
        ),
      ),
    );
    expect(completions.map((c) => c.status)).toEqual(ids.map(() => 200));
    // Deletions race folds: each evaluation is subtracted if a fold counted it, else only taken off the list.
    const [deletions] = await Promise.all([
      Promise.all(
        [ids[0]!, ids[0]!, ids[1]!, ids[5]!, ids[5]!, ids[7]!, ids[10]!].map((evalID) =>
          call(env, 'deleteEvaluation', { evalID }, { cookie }),
        ),
      ),
      folds(),
      folds(),
    ]);
    for (const d of deletions) expect([200, 404]).toContain(d.status);
    await expectExact(team.org.id);

    // Completing and deleting the same evaluation at once: whichever wins, the totals follow the results.
    const open: number[] = [];
    for (let i = 0; i < 6; i++) open.push(await start(i));
    const [raced] = await Promise.all([
      Promise.all(
        open.flatMap((evalID, i) => [
          call(env, 'addResults', { evalID, results: answers(card, i % 2 === 0, 'na', true) }, { cookie }),
          call(env, 'deleteEvaluation', { evalID }, { cookie }),
        ]),
      ),
      folds(),
    ]);
    for (const r of raced) expect([200, 404, 409]).toContain(r.status);
    await expectExact(team.org.id);
  });

  it('counts a pending evaluation on a bucket’s first instant once, and an item deleted since, known only from pending answers', async () => {
    const now = at('2026-06-10T12:00:00Z');
    env.clock.set(now);
    const { team, card, board } = await setup();
    const result = (index: number, pass: boolean) => ({
      item_id: card.itemIds[index]!,
      item_type: 'pass_fail' as const,
      position: index,
      content: 'Check',
      pass,
      na: false,
    });
    // Two days ago at 00:00 UTC exactly (the first instant of that day's bucket), and the day before at noon.
    for (const [completedAt, pass] of [
      [at('2026-06-08T00:00:00Z'), false],
      [at('2026-06-07T12:00:00Z'), true],
    ] as const) {
      await buildEvaluation(env, team.org, {
        board,
        card,
        user: team.evaluator,
        completedAt,
        pending: true,
        results: [result(1, pass), result(2, true)],
      });
    }
    await env.db
      .updateTable('card_items')
      .set({ is_deleted: 1 })
      .where('id', '=', card.itemIds[2]!)
      .execute();
    expect((await pending()).length).toBe(2);
    const cookie = team.admin.cookie;
    const byDay = await report(
      cookie,
      setting({ card_id: card.id, card_item_id: card.itemIds[1]!, start_number: 4 }),
      'UTC',
    );
    expect(byDay.rows.map((r) => [r.start ?? byDay.from, r.passed, r.failed])).toEqual([
      ['2026-06-06T00:00:00.000Z', 0, 0],
      ['2026-06-07T00:00:00.000Z', 1, 0],
      ['2026-06-08T00:00:00.000Z', 0, 1],
      ['2026-06-09T00:00:00.000Z', 0, 0],
      ['2026-06-10T00:00:00.000Z', 0, 0],
    ]);
    // The card's items: the deleted one is listed, for its pending answers.
    const items = await report(
      cookie,
      setting({ card_id: card.id, start_number: 7, time_division: 'Custom Interval' }),
      'UTC',
    );
    expect(items.rows.map((r) => [r.id, r.passed, r.failed])).toEqual([
      [card.itemIds[1]!, 1, 1],
      [card.itemIds[2]!, 2, 0],
    ]);
    await expectExact(team.org.id);
  });

  it('answers one card’s items and one item’s buckets as sums over every result row, in six zones', async () => {
    const now = at('2026-11-20T10:20:00Z');
    env.clock.set(now);
    const { team, card, board, second } = await setup();
    const other = await buildCard(env, team.org, {
      items: [{ type: 'pass_fail', content: '<p>Lid</p>', na: true }],
    });
    // Evaluations over the last 400 days, crowded around daylight-saving changes, at any quarter-hour and
    // minute, on both boards; a deterministic sequence.
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const changes = [
      '2026-03-29T01:00:00Z',
      '2026-10-25T01:00:00Z',
      '2026-03-08T07:00:00Z',
      '2026-04-04T15:00:00Z',
      '2026-10-03T15:30:00Z',
      '2025-11-20T18:15:00Z',
    ].map(at);
    const answer = (): boolean | 'na' => (rand() < 0.2 ? 'na' : rand() < 0.7);
    for (let i = 0; i < 160; i++) {
      const when =
        i % 2 === 0
          ? changes[i % changes.length]! + Math.floor((rand() - 0.5) * 2 * DAY)
          : now - Math.floor(rand() * 400 * DAY) - MINUTE;
      const where = rand() < 0.6 ? board : second;
      const onOther = i % 5 === 0;
      const guards = answer();
      const floor = answer();
      await buildEvaluation(env, team.org, {
        board: where,
        card: onOther ? other : card,
        user: team.evaluator,
        completedAt: Math.min(when, now - MINUTE),
        pass: true,
        // A third still pending (decision 0751): the reports add them to item_totals' rows.
        pending: i % 3 === 0,
        results: onOther
          ? [
              {
                item_id: other.itemIds[0]!,
                item_type: 'pass_fail',
                position: 0,
                content: 'Lid',
                pass: guards === 'na' ? null : guards,
                na: guards === 'na',
              },
            ]
          : [
              { item_id: card.itemIds[0]!, item_type: 'instruction', position: 0, content: 'Read' },
              {
                item_id: card.itemIds[1]!,
                item_type: 'pass_fail',
                position: 1,
                content: 'Guards',
                pass: guards === 'na' ? false : guards,
                na: false,
              },
              {
                item_id: card.itemIds[2]!,
                item_type: 'pass_fail',
                position: 2,
                content: 'Floor',
                pass: floor === 'na' ? null : floor,
                na: floor === 'na',
              },
              {
                item_id: card.itemIds[3]!,
                item_type: 'text',
                position: 3,
                content: 'Operator',
                na: rand() < 0.3,
              },
            ],
      });
    }
    // Later the Floor check became a text item and Guards was deleted: their Pass/Fail answers still count.
    await env.db.updateTable('card_items').set({ type: 'text' }).where('id', '=', card.itemIds[2]!).execute();
    await env.db
      .updateTable('card_items')
      .set({ is_deleted: 1 })
      .where('id', '=', card.itemIds[1]!)
      .execute();
    expect((await pending()).length).toBeGreaterThan(40);

    const results = await allResults(env, team.org.id);
    const items = await env.db
      .selectFrom('card_items')
      .select(['id', 'card_id', 'type', 'is_deleted'])
      .where('org_id', '=', team.org.id)
      .orderBy('position')
      .orderBy('id')
      .execute();
    const sum = (rows: ResultRow[]) => ({
      passed: rows.filter((r) => r.na === 0 && r.pass === 1).length,
      failed: rows.filter((r) => r.na === 0 && r.pass === 0).length,
      na: rows.filter((r) => r.na === 1).length,
    });
    const inScope = (r: ResultRow, boardId: number, lo: number, hi: number) =>
      (boardId === -1 || r.board_id === boardId) && r.completed_at >= lo && r.completed_at < hi;
    const cookie = team.admin.cookie;
    const zones = [
      'Europe/London',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Asia/Kolkata',
      'UTC',
    ];
    let compared = 0;
    // Every zone with a third of the evaluations pending; then one zone again, everything folded.
    const rounds = [...zones.map((zone) => ({ zone, fold: false })), { zone: 'Asia/Kathmandu', fold: true }];
    for (const { zone, fold } of rounds) {
      if (fold) await expectExact(team.org.id);
      // Custom Interval: the card's items (Pass/Fail answers only), on every board or one.
      for (const s of [
        { card_id: card.id, start_number: 365 },
        { card_id: card.id, board_id: board.id, start_number: 3, start_duration: 'Months' as const },
        { card_id: card.id, card_item_id: card.itemIds[2]!, start_number: 400 },
        { card_id: other.id, board_id: second.id, start_number: 2, start_duration: 'Weeks' as const },
      ]) {
        const got = await report(cookie, setting({ ...s, time_division: 'Custom Interval' }), zone);
        const lo = Math.floor(Date.parse(got.from) / SLOT) * SLOT;
        const boardId = s.board_id ?? -1;
        const expected = items
          .filter((i) => Number(i.card_id) === s.card_id)
          .filter((i) => !('card_item_id' in s) || Number(i.id) === s.card_item_id)
          .flatMap((i) => {
            const own = results.filter(
              (r) =>
                r.item_id === Number(i.id) &&
                r.item_type === 'pass_fail' &&
                inScope(r, boardId, lo, Infinity),
            );
            const has = own.length > 0;
            if (!((i.type === 'pass_fail' || has) && (i.is_deleted === 0 || has))) return [];
            const c = sum(own);
            return [[Number(i.id), c.passed, c.failed, c.na]];
          });
        expect(
          got.rows.map((r) => [r.id, r.passed, r.failed, r.na]),
          `${zone} ${JSON.stringify(s)}`,
        ).toEqual(expected);
        compared += expected.length;
      }
      // One item by local day, week or month: its answers of any type, bucket by bucket.
      for (const s of [
        { card_item_id: card.itemIds[2]!, time_division: 'Days' as const, start_number: 60 },
        {
          card_item_id: card.itemIds[1]!,
          board_id: second.id,
          time_division: 'Weeks' as const,
          start_number: 30,
          start_duration: 'Weeks' as const,
        },
        {
          card_item_id: card.itemIds[3]!,
          time_division: 'Months' as const,
          start_number: 13,
          start_duration: 'Months' as const,
        },
        {
          card_item_id: other.itemIds[0]!,
          time_division: 'Days' as const,
          start_number: 30,
          start_duration: 'Days' as const,
        },
      ]) {
        const got = await report(cookie, setting(s), zone);
        expect(got.measure).toBe('items');
        const edges = got.rows.map((r, i) => (i === 0 ? Date.parse(got.from) : Date.parse(r.start!)));
        const boardId = s.board_id ?? -1;
        const expected = edges.map((lo, i) => {
          const c = sum(
            results.filter(
              (r) => r.item_id === s.card_item_id && inScope(r, boardId, lo, edges[i + 1] ?? Infinity),
            ),
          );
          return [c.passed, c.failed, c.na];
        });
        expect(
          got.rows.map((r) => [r.passed, r.failed, r.na]),
          `${zone} ${JSON.stringify(s)}`,
        ).toEqual(expected);
        compared += expected.filter(([p, f, n]) => p! + f! + n! > 0).length;
      }
    }
    // The comparisons were not all of empty figures.
    expect(compared).toBeGreaterThan(100);
  });
});
