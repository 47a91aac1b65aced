/**
 * get-report against a brute-force count written independently here: random evaluations (two years,
 * crowded around daylight-saving changes), random settings and time zones; the expected figures come from
 * date-fns in the zone (@date-fns/tz), evaluation by evaluation, with none of the server's bucket code.
 */
import { TZDate } from '@date-fns/tz';
import {
  addDays,
  addMonths,
  addQuarters,
  addWeeks,
  addYears,
  format,
  startOfDay,
  startOfMonth,
  startOfQuarter,
  startOfWeek,
  startOfYear,
} from 'date-fns';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  DURATIONS,
  PERIOD_LIMITS,
  periodTooLongMessage,
  type DashboardSettingInput,
  type Duration,
} from '../../../common/api/entities.ts';
import { buildBoard, buildCard, buildEvaluation, buildOrg, buildUser, signIn } from '../../test/factories.ts';
import { call, describeEachDatabase } from '../../test/harness.ts';
import { messages } from './report.ts';

const ZONES = [
  'Europe/London',
  'America/New_York',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'UTC',
] as const;

// Daylight-saving changes of those zones in 2025-2026 (UTC instants).
const CHANGES = [
  '2025-03-30T01:00:00Z', // London forward
  '2025-10-26T01:00:00Z', // London back
  '2026-03-29T01:00:00Z',
  '2026-10-25T01:00:00Z',
  '2025-03-09T07:00:00Z', // New York forward
  '2025-11-02T06:00:00Z', // New York back
  '2026-03-08T07:00:00Z',
  '2026-11-01T06:00:00Z',
  '2025-04-05T16:00:00Z', // Sydney back
  '2025-10-04T16:00:00Z', // Sydney forward
  '2026-04-04T16:00:00Z',
  '2026-10-03T16:00:00Z',
  '2025-04-05T15:00:00Z', // Lord Howe back (02:00 → 01:30)
  '2025-10-04T15:30:00Z', // Lord Howe forward (02:00 → 02:30)
  '2026-04-04T15:00:00Z',
  '2026-10-03T15:30:00Z',
].map((iso) => Date.parse(iso));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// "Now" falls between the last changes and the end of 2026, so that two years back cover them all.
const NOW_FROM = Date.parse('2026-10-03T00:00:00Z');
const NOW_TO = Date.parse('2026-12-31T23:00:00Z');

type Answer = boolean | 'na';
interface GeneratedEvaluation {
  board: 0 | 1;
  card: 0 | 1;
  /** Minutes before now (0: at now itself). */
  ago: number;
  /** Or: minutes around a daylight-saving change, if that is before now. */
  change: { index: number; minutes: number } | null;
  answers: [Answer, Answer];
}

const answer = fc.oneof(fc.boolean(), fc.constant('na' as const));
const evaluationArb: fc.Arbitrary<GeneratedEvaluation> = fc.record({
  board: fc.constantFrom(0 as const, 1 as const),
  card: fc.constantFrom(0 as const, 1 as const),
  // Over two years, or over the last 90 days, where most periods are.
  ago: fc.oneof(fc.integer({ min: 0, max: 2 * 365 * 24 * 60 }), fc.integer({ min: 0, max: 90 * 24 * 60 })),
  change: fc.option(
    fc.record({
      index: fc.integer({ min: 0, max: CHANGES.length - 1 }),
      minutes: fc.integer({ min: -36 * 60, max: 36 * 60 }),
    }),
    { freq: 2 },
  ),
  answers: fc.tuple(answer, answer),
});

// Small enough numbers that most periods fit their division's limit; the rest check the refusal.
const reach: Record<Duration, number> = { Days: 70, Weeks: 30, Months: 26, Quarters: 9, Years: 2 };
const pointArb = fc
  .constantFrom(...DURATIONS)
  .chain((unit) => fc.record({ unit: fc.constant(unit), n: fc.integer({ min: -1, max: reach[unit] }) }));
const settingArb = fc.record({
  board: fc.constantFrom(-1, 0, 1),
  card: fc.constantFrom(-1, 0, 1),
  item: fc.constantFrom(-1, 0, 1),
  start: pointArb.filter((p) => p.n !== -1),
  end: fc.oneof(fc.constant({ unit: 'Days' as Duration, n: -1 }), pointArb),
  division: fc.constantFrom(
    'Days',
    'Weeks',
    'Months',
    'Quarters',
    'Years',
    'Custom Interval',
  ) as fc.Arbitrary<DashboardSettingInput['time_division']>,
});

// ----------------------------------------------------------------------------------------------------------
// The brute force, with date-fns in the zone

const startOfUnit: Record<Duration, (d: TZDate) => TZDate> = {
  Days: (d) => startOfDay(d),
  Weeks: (d) => startOfWeek(d, { weekStartsOn: 1 }),
  Months: (d) => startOfMonth(d),
  Quarters: (d) => startOfQuarter(d),
  Years: (d) => startOfYear(d),
};
const addUnit: Record<Duration, (d: TZDate, n: number) => TZDate> = {
  Days: addDays,
  Weeks: addWeeks,
  Months: addMonths,
  Quarters: addQuarters,
  Years: addYears,
};
const labelPattern: Record<Duration, string> = {
  Days: 'yyyy-MM-dd',
  Weeks: "RRRR-'W'II",
  Months: 'yyyy-MM',
  Quarters: "yyyy-'Q'Q",
  Years: 'yyyy',
};

function point(now: number, zone: string, p: { unit: Duration; n: number }, end: boolean): number {
  if (p.n === -1) return now;
  const current = startOfUnit[p.unit](new TZDate(now, zone));
  return addUnit[p.unit](current, -p.n + (end ? 1 : 0)).getTime();
}

interface Counted {
  passed: number;
  failed: number;
  na: number;
}
const rate = (c: Counted) => (c.passed + c.failed === 0 ? null : c.passed / (c.passed + c.failed));

describeEachDatabase('get-report, property', (env) => {
  it(
    'matches a brute-force count for random evaluations, settings and zones',
    { timeout: 600_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: NOW_FROM, max: NOW_TO }),
          fc.constantFrom(...ZONES),
          fc.array(evaluationArb, { minLength: 5, maxLength: 40 }),
          settingArb,
          async (nowRaw, zone, generated, g) => {
            const now = Math.floor(nowRaw / MINUTE) * MINUTE;
            env.clock.set(now);
            const org = await buildOrg(env);
            const admin = await buildUser(env, org, { role: 'admin' });
            const cookie = await signIn(env, admin);
            const cards = [
              await buildCard(env, org, {
                items: [
                  { type: 'pass_fail', content: '<p>A</p>', na: true },
                  { type: 'pass_fail', content: '<p>B</p>', na: true },
                ],
              }),
              await buildCard(env, org, {
                items: [
                  { type: 'pass_fail', content: '<p>C</p>', na: true },
                  { type: 'pass_fail', content: '<p>D</p>', na: true },
                ],
              }),
            ];
            const boards = [
              await buildBoard(env, org, { cardIds: [cards[0]!.id, cards[1]!.id] }),
              await buildBoard(env, org, { cardIds: [cards[0]!.id, cards[1]!.id] }),
            ];
            const evaluations = generated.map((e) => {
              const near = e.change ? CHANGES[e.change.index]! + e.change.minutes * MINUTE : null;
              const at =
                near !== null && near < now && near > now - 2 * 365 * DAY ? near : now - e.ago * MINUTE;
              // An evaluation passes unless an item fails (N/A does not count).
              return { ...e, at, pass: !e.answers.includes(false) };
            });
            for (const e of evaluations) {
              const card = cards[e.card]!;
              await buildEvaluation(env, org, {
                board: boards[e.board]!,
                card,
                user: admin,
                completedAt: e.at,
                pass: e.pass,
                results: e.answers.map((a, i) => ({
                  item_id: card.itemIds[i]!,
                  item_type: 'pass_fail' as const,
                  position: i,
                  content: 'x',
                  pass: a === 'na' ? null : a,
                  na: a === 'na',
                })),
              });
            }

            const setting: DashboardSettingInput = {
              board_id: g.board === -1 ? -1 : boards[g.board]!.id,
              card_id: g.card === -1 ? -1 : cards[g.card]!.id,
              // An item is of the chosen card, or of the first card when none is chosen.
              card_item_id: g.item === -1 ? -1 : cards[g.card === -1 ? 0 : g.card]!.itemIds[g.item]!,
              start_number: g.start.n,
              start_duration: g.start.unit,
              end_number: g.end.n,
              end_duration: g.end.unit,
              time_division: g.division,
              type: 'Table',
              graph_order: 0,
            };
            const answer = await call(env, 'getReport', { setting, timeZone: zone }, { cookie });

            // Expected, evaluation by evaluation.
            const from = point(now, zone, g.start, false);
            const to = point(now, zone, g.end, true);
            if (to <= from) {
              expect(answer.body).toMatchObject({ errMsg: messages.periodBackwards });
              return;
            }
            // "Now" includes its own millisecond.
            const until = g.end.n === -1 ? now + 1 : to;
            const itemCard =
              setting.card_item_id === -1 ? setting.card_id : cards[g.card === -1 ? 0 : g.card]!.id;
            const inScope = evaluations.filter(
              (e) =>
                e.at >= from &&
                e.at < until &&
                (setting.board_id === -1 || boards[e.board]!.id === setting.board_id) &&
                (itemCard === -1 || cards[e.card]!.id === itemCard),
            );
            const itemMeasure =
              setting.card_item_id !== -1 || (g.division === 'Custom Interval' && g.card !== -1);
            const tally = (into: Counted, e: (typeof evaluations)[number], item?: number) => {
              if (item === undefined) {
                if (e.pass) into.passed++;
                else into.failed++;
              } else {
                const a = e.answers[item]!;
                if (a === 'na') into.na++;
                else if (a) into.passed++;
                else into.failed++;
              }
            };
            const itemIndex = g.item === -1 ? undefined : g.item;

            if (g.division !== 'Custom Interval') {
              const division = g.division;
              const expected: {
                label: string;
                start: string;
                passed: number;
                failed: number;
                na: number;
                passRate: number | null;
              }[] = [];
              const byLabel = new Map<string, Counted>();
              for (
                let start = startOfUnit[division](new TZDate(from, zone));
                start.getTime() < until;
                start = addUnit[division](start, 1)
              ) {
                const counted = { passed: 0, failed: 0, na: 0 };
                byLabel.set(format(start, labelPattern[division]), counted);
                expected.push({
                  label: format(start, labelPattern[division]),
                  start: new Date(start.getTime()).toISOString(),
                  ...counted,
                  passRate: null,
                });
              }
              if (expected.length > PERIOD_LIMITS[division] + 1) {
                expect(answer.body).toMatchObject({ errMsg: periodTooLongMessage(division) });
                return;
              }
              for (const e of inScope)
                tally(byLabel.get(format(new TZDate(e.at, zone), labelPattern[division]))!, e, itemIndex);
              for (const row of expected)
                Object.assign(row, byLabel.get(row.label)!, { passRate: rate(byLabel.get(row.label)!) });
              expect(answer.status, JSON.stringify(answer.body)).toBe(200);
              expect(answer.body.report).toMatchObject({
                mode: 'TimeSeries',
                measure: itemMeasure ? 'items' : 'evaluations',
                from: new Date(from).toISOString(),
                to: new Date(to).toISOString(),
              });
              expect(answer.body.report.rows).toEqual(expected.map((r) => ({ ...r, id: null })));
              return;
            }

            // Custom Interval: per item of the card, per card of the board, or per board.
            const figures = new Map<number, Counted>();
            const add = (id: number, e: (typeof evaluations)[number], item?: number) => {
              const counted = figures.get(id) ?? { passed: 0, failed: 0, na: 0 };
              tally(counted, e, item);
              figures.set(id, counted);
            };
            let mode: string;
            let ids: number[];
            if (itemCard !== -1) {
              mode = 'CustomIntervalItems';
              const card = cards.find((c) => c.id === itemCard)!;
              const items = itemIndex === undefined ? [0, 1] : [itemIndex];
              ids = items.map((i) => card.itemIds[i]!);
              for (const e of inScope) for (const i of items) add(card.itemIds[i]!, e, i);
            } else if (setting.board_id !== -1) {
              mode = 'CustomIntervalCards';
              ids = cards.map((c) => c.id);
              for (const e of inScope) add(cards[e.card]!.id, e);
            } else {
              mode = 'CustomIntervalBoards';
              ids = boards.map((b) => b.id);
              for (const e of inScope) add(boards[e.board]!.id, e);
            }
            expect(answer.status, JSON.stringify(answer.body)).toBe(200);
            expect(answer.body.report).toMatchObject({
              mode,
              measure: itemMeasure ? 'items' : 'evaluations',
            });
            const got = new Map(
              answer.body.report.rows.map(
                (r: Counted & { id: number; passRate: number | null; start: null }) => [r.id, r],
              ),
            );
            expect([...got.keys()].sort()).toEqual([...ids].sort());
            for (const id of ids) {
              const counted = figures.get(id) ?? { passed: 0, failed: 0, na: 0 };
              expect(got.get(id)).toMatchObject({ ...counted, passRate: rate(counted), start: null });
            }
          },
        ),
        {
          numRuns: Number(process.env.PROPERTY_RUNS ?? 40),
          seed: process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined,
        },
      );
    },
  );
});
