import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { periodTooLongMessage, type DashboardSettingInput } from '../../../common/api/entities.ts';
import { BACKFILL_EVALUATION_COUNTS } from '../../db/migrations/0005_analytics.ts';
import { BACKFILL_EVALUATION_TOTALS } from '../../db/migrations/0010_evaluation_totals.ts';
import { buildBoard, buildCard, buildEvaluation, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { messages } from './report.ts';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
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

/**
 * evaluation_counts and evaluation_totals as stored, each key's shards summed (decision 0746; keys emptied by
 * deletions dropped), and as recounted here from the evaluations.
 */
async function countsAgainstEvaluations(env: Pick<TestEnv, 'db'>, orgId: number) {
  const stored = await env.db
    .selectFrom('evaluation_counts')
    .select(['board_id', 'card_id', 'slot'])
    .select((eb) => [eb.fn.sum<number>('passed').as('passed'), eb.fn.sum<number>('failed').as('failed')])
    .where('org_id', '=', orgId)
    .groupBy(['board_id', 'card_id', 'slot'])
    .having((eb) => eb.or([eb(eb.fn.sum('passed'), '!=', 0), eb(eb.fn.sum('failed'), '!=', 0)]))
    .execute();
  const evaluations = await env.db
    .selectFrom('evaluations')
    .select(['board_id', 'card_id', 'completed_at', 'pass'])
    .where('org_id', '=', orgId)
    .where('completed_at', 'is not', null)
    .execute();
  const recounted = new Map<string, [number, number]>();
  for (const e of evaluations) {
    const slot = Math.floor(e.completed_at! / (15 * 60_000));
    for (const key of [
      `${e.board_id}/${e.card_id}/${slot}`,
      `${e.board_id}/0/${slot}`,
      `0/${e.card_id}/${slot}`,
      `0/0/${slot}`,
    ]) {
      const tally = recounted.get(key) ?? [0, 0];
      tally[e.pass === 1 ? 0 : 1]++;
      recounted.set(key, tally);
    }
  }
  // evaluation_totals: the organisation (board 0) and each board, by UTC hour (unit 1) and day (unit 2).
  const totals = await env.db
    .selectFrom('evaluation_totals')
    .select(['unit', 'board_id', 'card_id', 'slot'])
    .select((eb) => [eb.fn.sum<number>('passed').as('passed'), eb.fn.sum<number>('failed').as('failed')])
    .where('org_id', '=', orgId)
    .groupBy(['unit', 'board_id', 'card_id', 'slot'])
    .having((eb) => eb.or([eb(eb.fn.sum('passed'), '!=', 0), eb(eb.fn.sum('failed'), '!=', 0)]))
    .execute();
  for (const e of evaluations) {
    for (const [unit, ms] of [
      [1, 3_600_000],
      [2, 86_400_000],
    ] as const) {
      const slot = Math.floor(e.completed_at! / ms);
      for (const key of [
        `total ${unit}/${e.board_id}/${e.card_id}/${slot}`,
        `total ${unit}/${e.board_id}/0/${slot}`,
        `total ${unit}/0/${e.card_id}/${slot}`,
        `total ${unit}/0/0/${slot}`,
      ]) {
        const tally = recounted.get(key) ?? [0, 0];
        tally[e.pass === 1 ? 0 : 1]++;
        recounted.set(key, tally);
      }
    }
  }
  return {
    stored: [
      ...stored.map((r) => `${r.board_id}/${r.card_id}/${r.slot}: ${r.passed} ${r.failed}`),
      ...totals.map((r) => `total ${r.unit}/${r.board_id}/${r.card_id}/${r.slot}: ${r.passed} ${r.failed}`),
    ].sort(),
    recounted: [...recounted].map(([key, [p, f]]) => `${key}: ${p} ${f}`).sort(),
  };
}

describeEachDatabase('get-report', (env) => {
  async function report(cookie: string, s: DashboardSettingInput, timeZone: string) {
    const answer = await call(env, 'getReport', { setting: s, timeZone }, { cookie });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.report;
  }

  async function setup() {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, {
      items: [
        { type: 'instruction', content: '<p>Read &amp; check</p>' },
        { type: 'pass_fail', content: '<p>Guards <b>in</b> place</p>' },
        { type: 'pass_fail', content: '<p>Floor is dry</p>', na: true },
        { type: 'text', content: '<p>Operator</p>' },
      ],
    });
    const other = await buildCard(env, team.org, { name: 'Other card' });
    const board = await buildBoard(env, team.org, { name: 'Line A', cardIds: [card.id, other.id] });
    const second = await buildBoard(env, team.org, { name: 'Line B', cardIds: [card.id] });
    const evaluate = (
      where: { id: number; name: string },
      what: { id: number; name: string; itemIds: number[] },
      completedAt: number,
      pass: boolean,
      answers?: { guards: boolean | 'na'; floor: boolean | 'na' },
    ) =>
      buildEvaluation(env, team.org, {
        board: where,
        card: what,
        user: team.evaluator,
        completedAt,
        pass,
        results:
          answers && what.id === card.id
            ? [
                { item_id: card.itemIds[0]!, item_type: 'instruction', position: 0, content: 'Read' },
                ...(['guards', 'floor'] as const).map((k, i) => ({
                  item_id: card.itemIds[i + 1]!,
                  item_type: 'pass_fail' as const,
                  position: i + 1,
                  content: k,
                  pass: answers[k] === 'na' ? null : answers[k],
                  na: answers[k] === 'na',
                })),
                {
                  item_id: card.itemIds[3]!,
                  item_type: 'text',
                  position: 3,
                  content: 'Op',
                  text_result: 'Sam',
                },
              ]
            : [],
      });
    return { team, card, other, board, second, evaluate };
  }

  it('counts local days across the end of summer time in London, empty days with zeros and no rate', async () => {
    env.clock.set(at('2026-10-28T12:00:00Z'));
    const { team, card, board, evaluate } = await setup();
    // 25 October 2026: London's day of 25 hours, from 23:00 UTC the day before to 00:00 UTC the day after.
    await evaluate(board, card, at('2026-10-24T22:59:00Z'), true); // 23:59 BST on the 24th
    await evaluate(board, card, at('2026-10-24T23:00:00Z'), false); // 00:00 BST on the 25th
    await evaluate(board, card, at('2026-10-25T00:30:00Z'), true); // 01:30 BST
    await evaluate(board, card, at('2026-10-25T01:30:00Z'), true); // 01:30 GMT, the second one
    await evaluate(board, card, at('2026-10-25T23:59:00Z'), false); // 23:59 GMT on the 25th
    await evaluate(board, card, at('2026-10-26T00:00:00Z'), true); // the 26th
    const answer = await report(team.admin.cookie, setting({ start_number: 5 }), 'Europe/London');
    expect(answer).toMatchObject({
      mode: 'TimeSeries',
      measure: 'evaluations',
      from: '2026-10-22T23:00:00.000Z',
      to: '2026-10-28T12:00:00.000Z',
    });
    expect(answer.rows).toEqual([
      {
        label: '2026-10-23',
        start: '2026-10-22T23:00:00.000Z',
        id: null,
        passed: 0,
        failed: 0,
        na: 0,
        passRate: null,
      },
      {
        label: '2026-10-24',
        start: '2026-10-23T23:00:00.000Z',
        id: null,
        passed: 1,
        failed: 0,
        na: 0,
        passRate: 1,
      },
      {
        label: '2026-10-25',
        start: '2026-10-24T23:00:00.000Z',
        id: null,
        passed: 2,
        failed: 2,
        na: 0,
        passRate: 0.5,
      },
      {
        label: '2026-10-26',
        start: '2026-10-26T00:00:00.000Z',
        id: null,
        passed: 1,
        failed: 0,
        na: 0,
        passRate: 1,
      },
      {
        label: '2026-10-27',
        start: '2026-10-27T00:00:00.000Z',
        id: null,
        passed: 0,
        failed: 0,
        na: 0,
        passRate: null,
      },
      {
        label: '2026-10-28',
        start: '2026-10-28T00:00:00.000Z',
        id: null,
        passed: 0,
        failed: 0,
        na: 0,
        passRate: null,
      },
    ]);
    // The same instants in New York (EDT until 1 November): the 23:59 GMT one is still the 25th there.
    const newYork = await report(
      team.admin.cookie,
      setting({ start_number: 5, end_number: 2 }),
      'America/New_York',
    );
    expect(
      newYork.rows.map((r: { label: string; passed: number; failed: number }) => [
        r.label,
        r.passed,
        r.failed,
      ]),
    ).toEqual([
      ['2026-10-23', 0, 0],
      ['2026-10-24', 3, 1],
      ['2026-10-25', 1, 1],
      ['2026-10-26', 0, 0],
    ]);
    expect(newYork.to).toBe('2026-10-27T04:00:00.000Z');
  });

  it('buckets weeks from Monday, months, quarters and years in the caller’s zone, with ISO week labels', async () => {
    env.clock.set(at('2027-01-06T12:00:00Z'));
    const { team, card, board, evaluate } = await setup();
    // Kathmandu is UTC+5:45: 2026-12-31T18:15Z is already 1 January 2027 there.
    await evaluate(board, card, at('2026-12-31T18:14:00Z'), true);
    await evaluate(board, card, at('2026-12-31T18:15:00Z'), false);
    await evaluate(board, card, at('2026-10-01T00:00:00Z'), true);
    const weeks = await report(
      team.admin.cookie,
      setting({ start_number: 2, start_duration: 'Weeks', time_division: 'Weeks' }),
      'Asia/Kathmandu',
    );
    expect(
      weeks.rows.map((r: { label: string; start: string; passed: number; failed: number }) => [
        r.label,
        r.start,
        r.passed,
        r.failed,
      ]),
    ).toEqual([
      ['2026-W52', '2026-12-20T18:15:00.000Z', 0, 0],
      ['2026-W53', '2026-12-27T18:15:00.000Z', 1, 1],
      ['2027-W01', '2027-01-03T18:15:00.000Z', 0, 0],
    ]);
    const months = await report(
      team.admin.cookie,
      setting({
        start_number: 3,
        start_duration: 'Months',
        end_number: 1,
        end_duration: 'Months',
        time_division: 'Months',
      }),
      'Asia/Kathmandu',
    );
    expect(
      months.rows.map((r: { label: string; passed: number; failed: number }) => [
        r.label,
        r.passed,
        r.failed,
      ]),
    ).toEqual([
      ['2026-10', 1, 0],
      ['2026-11', 0, 0],
      ['2026-12', 1, 0],
    ]);
    const quarters = await report(
      team.admin.cookie,
      setting({ start_number: 1, start_duration: 'Quarters', time_division: 'Quarters' }),
      'Asia/Kathmandu',
    );
    expect(
      quarters.rows.map((r: { label: string; passed: number; failed: number }) => [
        r.label,
        r.passed,
        r.failed,
      ]),
    ).toEqual([
      ['2026-Q4', 2, 0],
      ['2027-Q1', 0, 1],
    ]);
    const years = await report(
      team.admin.cookie,
      setting({ start_number: 1, start_duration: 'Years', time_division: 'Years' }),
      'UTC',
    );
    expect(
      years.rows.map((r: { label: string; start: string; passed: number; failed: number }) => [
        r.label,
        r.start,
        r.passed,
        r.failed,
      ]),
    ).toEqual([
      ['2026', '2026-01-01T00:00:00.000Z', 2, 1],
      ['2027', '2027-01-01T00:00:00.000Z', 0, 0],
    ]);
  });

  it('follows Lord Howe’s half-hour summer time: the day it ends is 24½ hours long', async () => {
    env.clock.set(at('2026-04-08T00:00:00Z'));
    const { team, card, board, evaluate } = await setup();
    // Summer time (UTC+11) ends on 5 April 2026 at 02:00, back to 01:30 (UTC+10:30).
    await evaluate(board, card, at('2026-04-04T12:59:00Z'), true); // 23:59 on the 4th
    await evaluate(board, card, at('2026-04-04T13:00:00Z'), true); // 00:00 on the 5th
    await evaluate(board, card, at('2026-04-05T13:29:00Z'), false); // 23:59 on the 5th (UTC+10:30)
    await evaluate(board, card, at('2026-04-05T13:30:00Z'), false); // 00:00 on the 6th
    const answer = await report(
      team.admin.cookie,
      setting({ start_number: 4, end_number: 2, board_id: board.id, card_id: card.id }),
      'Australia/Lord_Howe',
    );
    expect(
      answer.rows.map((r: { label: string; start: string; passed: number; failed: number }) => [
        r.label,
        r.start,
        r.passed,
        r.failed,
      ]),
    ).toEqual([
      ['2026-04-04', '2026-04-03T13:00:00.000Z', 1, 0],
      ['2026-04-05', '2026-04-04T13:00:00.000Z', 1, 1],
      ['2026-04-06', '2026-04-05T13:30:00.000Z', 0, 1],
    ]);
  });

  it('measures one board, one card on every board, or one item’s pass, fail and N/A answers', async () => {
    env.clock.set(at('2026-06-10T12:00:00Z'));
    const { team, card, other, board, second, evaluate } = await setup();
    const day = at('2026-06-09T08:00:00Z');
    await evaluate(board, card, day, true, { guards: true, floor: 'na' });
    await evaluate(board, card, day + HOUR, false, { guards: false, floor: true });
    await evaluate(second, card, day + 2 * HOUR, true, { guards: true, floor: true });
    await evaluate(board, other, day + 3 * HOUR, false);
    const yesterday = { start_number: 1, end_number: 1 };
    const figures = async (s: Partial<DashboardSettingInput>) => {
      const answer = await report(team.admin.cookie, setting({ ...yesterday, ...s }), 'Europe/Paris');
      expect(answer.rows).toHaveLength(1);
      const [r] = answer.rows;
      return [answer.measure, r.passed, r.failed, r.na];
    };
    expect(await figures({})).toEqual(['evaluations', 2, 2, 0]);
    expect(await figures({ board_id: board.id })).toEqual(['evaluations', 1, 2, 0]);
    expect(await figures({ board_id: second.id })).toEqual(['evaluations', 1, 0, 0]);
    expect(await figures({ card_id: card.id })).toEqual(['evaluations', 2, 1, 0]);
    expect(await figures({ board_id: board.id, card_id: card.id })).toEqual(['evaluations', 1, 1, 0]);
    expect(await figures({ card_item_id: card.itemIds[1]! })).toEqual(['items', 2, 1, 0]);
    expect(await figures({ card_id: card.id, card_item_id: card.itemIds[2]! })).toEqual(['items', 2, 0, 1]);
    expect(await figures({ board_id: board.id, card_item_id: card.itemIds[2]! })).toEqual(['items', 1, 0, 1]);
  });

  it('compares boards, cards or items over a custom interval, deleted ones included while they have figures', async () => {
    env.clock.set(at('2026-06-10T12:00:00Z'));
    const { team, card, other, board, second, evaluate } = await setup();
    const extra = await buildCard(env, team.org, { name: 'Zeta card' });
    const empty = await buildBoard(env, team.org, { name: 'Line C', cardIds: [extra.id] });
    const gone = await buildBoard(env, team.org, { name: 'Line D', cardIds: [extra.id] });
    const day = at('2026-06-01T08:00:00Z');
    await evaluate(board, card, day, true, { guards: true, floor: 'na' });
    await evaluate(board, card, day + HOUR, false, { guards: false, floor: true });
    await evaluate(second, card, day, true, { guards: true, floor: true });
    await evaluate(board, other, day, false);
    await evaluate(gone, extra, day, true);
    // Outside the period: not counted.
    await evaluate(board, card, at('2026-04-01T08:00:00Z'), true, { guards: true, floor: true });
    expect((await call(env, 'deleteBoard', { id: gone.id }, { cookie: team.admin.cookie })).status).toBe(200);
    expect((await call(env, 'deleteCard', { id: other.id }, { cookie: team.admin.cookie })).status).toBe(200);
    const interval = { start_number: 1, start_duration: 'Months', time_division: 'Custom Interval' } as const;
    const rows = (answer: {
      rows: {
        label: string;
        id: number;
        start: null;
        passed: number;
        failed: number;
        na: number;
        passRate: number | null;
      }[];
    }) => answer.rows.map((r) => [r.label, r.id, r.passed, r.failed, r.na, r.passRate]);

    const boards = await report(team.admin.cookie, setting(interval), 'Europe/Paris');
    expect(boards).toMatchObject({
      mode: 'CustomIntervalBoards',
      measure: 'evaluations',
      from: '2026-04-30T22:00:00.000Z',
    });
    expect(rows(boards)).toEqual([
      ['Line A', board.id, 1, 2, 0, 1 / 3],
      ['Line B', second.id, 1, 0, 0, 1],
      ['Line C', empty.id, 0, 0, 0, null],
      ['Line D', gone.id, 1, 0, 0, 1],
    ]);
    const cards = await report(
      team.admin.cookie,
      setting({ ...interval, board_id: board.id }),
      'Europe/Paris',
    );
    expect(cards.mode).toBe('CustomIntervalCards');
    expect(rows(cards)).toEqual([
      [card.name, card.id, 1, 1, 0, 0.5],
      ['Other card', other.id, 0, 1, 0, 0],
    ]);
    const items = await report(team.admin.cookie, setting({ ...interval, card_id: card.id }), 'Europe/Paris');
    expect(items).toMatchObject({ mode: 'CustomIntervalItems', measure: 'items' });
    expect(rows(items)).toEqual([
      ['Guards in place', card.itemIds[1], 2, 1, 0, 2 / 3],
      ['Floor is dry', card.itemIds[2], 2, 0, 1, 1],
    ]);
    const onBoard = await report(
      team.admin.cookie,
      setting({ ...interval, board_id: board.id, card_id: card.id, card_item_id: card.itemIds[2]! }),
      'Europe/Paris',
    );
    expect(rows(onBoard)).toEqual([['Floor is dry', card.itemIds[2], 1, 0, 1, 1]]);
  });

  it('keeps the counts exact through add-results, delete-evaluation and maintenance, as the migration’s backfill recounts them', async () => {
    env.clock.set(at('2026-03-01T09:07:00Z'));
    const { team, card, board } = await setup();
    const cookie = team.evaluator.cookie;
    const answers = (guards: boolean) => [
      { item_id: card.itemIds[1]!, pass: guards },
      { item_id: card.itemIds[2]!, na: true },
    ];
    const ids: number[] = [];
    for (const [i, guards] of [true, false, true, true].entries()) {
      if (i > 0) env.clock.advance(7 * 60_000);
      const started = await call(env, 'addEvaluation', { boardID: board.id, cardID: card.id }, { cookie });
      const done = await call(
        env,
        'addResults',
        { evalID: started.body.id, results: answers(guards) },
        { cookie },
      );
      expect(done.status).toBe(200);
      ids.push(started.body.id);
    }
    // A retried completion and an unfinished evaluation count nothing.
    expect(
      (await call(env, 'addResults', { evalID: ids[0]!, results: answers(false) }, { cookie })).status,
    ).toBe(409);
    await call(env, 'addEvaluation', { boardID: board.id, cardID: card.id }, { cookie });
    let counts = await countsAgainstEvaluations(env, team.org.id);
    expect(counts.stored).toEqual(counts.recounted);
    // Two quarter-hours, one hour and one day, each at four levels.
    expect(counts.stored).toHaveLength(4 * 2 + 4 * 2);
    const today = setting({ start_number: 0 });
    expect((await report(team.admin.cookie, today, 'UTC')).rows[0]).toMatchObject({ passed: 3, failed: 1 });

    for (const id of [ids[1]!, ids[2]!]) {
      expect(
        (await call(env, 'deleteEvaluation', { evalID: id }, { cookie: team.admin.cookie })).status,
      ).toBe(200);
    }
    expect(
      (await call(env, 'deleteEvaluation', { evalID: ids[1]! }, { cookie: team.admin.cookie })).status,
    ).toBe(404);
    counts = await countsAgainstEvaluations(env, team.org.id);
    expect(counts.stored).toEqual(counts.recounted);
    expect((await report(team.admin.cookie, today, 'UTC')).rows[0]).toMatchObject({ passed: 2, failed: 0 });

    // Maintenance purges only unfinished evaluations, which were never counted.
    env.clock.advance(2 * DAY);
    const { runMaintenance } = await import('../../jobs/maintenance.ts');
    await runMaintenance(env.services);
    counts = await countsAgainstEvaluations(env, team.org.id);
    expect(counts.stored).toEqual(counts.recounted);

    // The migration's backfill, run on the emptied table, gives the same rows.
    await env.db.deleteFrom('evaluation_counts').execute();
    await env.db.deleteFrom('evaluation_totals').execute();
    expect((await countsAgainstEvaluations(env, team.org.id)).stored).toEqual([]);
    for (const statement of [...BACKFILL_EVALUATION_COUNTS, ...BACKFILL_EVALUATION_TOTALS])
      await sql.raw(statement).execute(env.db);
    expect((await countsAgainstEvaluations(env, team.org.id)).stored).toEqual(counts.recounted);
  });

  it('keeps the counts exact when completions and deletions race, the same deletion twice included', async () => {
    env.clock.set(at('2026-05-04T10:00:00Z'));
    const { team, card, board, second } = await setup();
    const cookie = team.admin.cookie;
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const started = await call(
        env,
        'addEvaluation',
        { boardID: i % 2 ? board.id : second.id, cardID: card.id },
        { cookie },
      );
      ids.push(started.body.id);
    }
    const completions = await Promise.all(
      ids.map((evalID, i) =>
        call(
          env,
          'addResults',
          {
            evalID,
            results: [
              { item_id: card.itemIds[1]!, pass: i % 3 !== 0 },
              { item_id: card.itemIds[2]!, na: true },
            ],
          },
          { cookie },
        ),
      ),
    );
    expect(completions.map((c) => c.status)).toEqual(ids.map(() => 200));
    const deletions = await Promise.all(
      [ids[0]!, ids[0]!, ids[1]!, ids[5]!, ids[5]!].map((evalID) =>
        call(env, 'deleteEvaluation', { evalID }, { cookie }),
      ),
    );
    // A copy racing the first may find the evaluation still there (PostgreSQL) and answer 200 too, or not
    // (404); either way it must not subtract it twice.
    for (const d of deletions) expect([200, 404]).toContain(d.status);
    expect(deletions.filter((d) => d.status === 200).length).toBeGreaterThanOrEqual(3);
    const counts = await countsAgainstEvaluations(env, team.org.id);
    expect(counts.stored).toEqual(counts.recounted);
    const today = await report(cookie, setting({ start_number: 0 }), 'UTC');
    expect(today.rows[0]).toMatchObject({ passed: 6, failed: 3 });
  });

  it('refuses a bad time zone, a period ending before it starts or too long for its division, and another organisation’s targets', async () => {
    env.clock.set(at('2026-06-10T12:00:00Z'));
    const { team, card, other } = await setup();
    const stranger = await buildTeam(env);
    const theirCard = await buildCard(env, stranger.org);
    const theirBoard = await buildBoard(env, stranger.org, { cardIds: [theirCard.id] });
    const cases: [unknown, number, string, string?][] = [
      [
        { setting: setting(), timeZone: 'Mars/Olympus' },
        400,
        messages.unknownZone('Mars/Olympus'),
        'timeZone',
      ],
      [{ setting: setting(), timeZone: '+05:30' }, 400, messages.unknownZone('+05:30'), 'timeZone'],
      [
        { setting: setting({ start_number: 1, end_number: 3 }), timeZone: 'UTC' },
        400,
        messages.periodBackwards,
        'end_number',
      ],
      [
        { setting: setting({ start_number: -1 }), timeZone: 'UTC' },
        400,
        messages.periodBackwards,
        'end_number',
      ],
      [
        {
          setting: setting({ start_number: 3, start_duration: 'Years', time_division: 'Days' }),
          timeZone: 'UTC',
        },
        400,
        periodTooLongMessage('Days'),
        'start_number',
      ],
      [
        {
          setting: setting({ start_number: 9, start_duration: 'Years', time_division: 'Months' }),
          timeZone: 'UTC',
        },
        400,
        periodTooLongMessage('Months'),
        'start_number',
      ],
      [
        { setting: setting({ start_number: 731 }), timeZone: 'UTC' },
        400,
        periodTooLongMessage('Days'),
        'start_number',
      ],
      [{ setting: setting({ board_id: theirBoard.id }), timeZone: 'UTC' }, 404, messages.boardNotFound],
      [{ setting: setting({ card_id: theirCard.id }), timeZone: 'UTC' }, 404, messages.cardNotFound],
      [
        { setting: setting({ card_item_id: theirCard.itemIds[1]! }), timeZone: 'UTC' },
        404,
        messages.itemNotFound,
      ],
      [
        { setting: setting({ card_id: other.id, card_item_id: card.itemIds[1]! }), timeZone: 'UTC' },
        400,
        messages.itemNotOnCard,
      ],
    ];
    for (const [body, status, errMsg, errField] of cases) {
      const answer = await call(env, 'getReport', body as never, { cookie: team.admin.cookie });
      expect(answer, JSON.stringify(body).slice(0, 120)).toMatchObject({
        status,
        body: errField ? { errMsg, errField } : { errMsg },
      });
    }
    // The longest periods each division allows.
    for (const [start_duration, time_division, start_number] of [
      ['Days', 'Days', 730],
      ['Weeks', 'Weeks', 104],
      ['Months', 'Months', 48],
      ['Quarters', 'Quarters', 16],
      ['Years', 'Years', 10],
      ['Years', 'Custom Interval', 10],
    ] as const) {
      const answer = await report(
        team.owner.cookie,
        setting({ start_number, start_duration, time_division }),
        'Europe/London',
      );
      if (time_division === 'Custom Interval') expect(answer.mode).toBe('CustomIntervalBoards');
      else expect(answer.rows).toHaveLength(start_number + 1);
    }
  });
});
