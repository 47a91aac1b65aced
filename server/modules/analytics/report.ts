/**
 * get-report: one graph's figures, computed by the database (docs/decisions/0420, 0421).
 *
 * Whole evaluations are counted from evaluation_counts (per UTC quarter-hour) and evaluation_totals (per UTC
 * hour and day), at four levels: a card on a board, a board, a card on every board, the organisation
 * (decision 0582). One item's answers are counted from item_totals (per board and item, by UTC quarter-hour,
 * hour, day and eight days, read as signed pieces: decision 0627). Either way the database sums by bucket: the caller's local days,
 * weeks, months, quarters or years are turned into quarter-hour edges here, and the query groups by them.
 * Nothing is summed in JavaScript.
 */
import { sql, type RawBuilder } from 'kysely';
import {
  PERIOD_LIMITS,
  periodTooLongMessage,
  type DashboardSettingInput,
  type REPORT_MODES,
} from '../../../common/api/entities.ts';
import type { CallContext, UserActor } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { integerRows } from '../../db/dialect.ts';
import { badRequest, notFound } from '../../errors.ts';
import { TOTAL_UNITS, UNIT_CODES } from '../../db/migrations/0010_evaluation_totals.ts';
import { ITEM_UNITS } from '../../db/migrations/0027_item_totals.ts';
import { bucketsOf, countedRange, periodPoint, SLOT_MS, zoneOf, type Bucket } from './buckets.ts';
import { messages as dashboardMessages } from './service.ts';

type Ctx = CallContext<UserActor>;
type Mode = (typeof REPORT_MODES)[number];

export const messages = {
  ...dashboardMessages,
  unknownZone: (zone: string) => `Unknown time zone: ${zone}.`,
  periodBackwards: 'The period must start before it ends.',
};

export interface ReportRow {
  label: string;
  start: string | null;
  id: number | null;
  passed: number;
  failed: number;
  na: number;
  passRate: number | null;
}

export interface Report {
  mode: Mode;
  measure: 'evaluations' | 'items';
  from: string;
  to: string;
  rows: ReportRow[];
}

interface Counts {
  passed: number;
  failed: number;
  na: number;
}

const ZERO: Counts = { passed: 0, failed: 0, na: 0 };

function row(label: string, start: number | null, id: number | null, counts: Counts): ReportRow {
  const decided = counts.passed + counts.failed;
  return {
    label,
    start: start === null ? null : new Date(start).toISOString(),
    id,
    passed: counts.passed,
    failed: counts.failed,
    na: counts.na,
    passRate: decided === 0 ? null : counts.passed / decided,
  };
}

/** A Custom Interval compares the items of a card (a chosen item names its card), else the cards of a board, else the boards. */
export function modeOf(
  setting: Pick<DashboardSettingInput, 'time_division' | 'board_id' | 'card_id' | 'card_item_id'>,
): Mode {
  if (setting.time_division !== 'Custom Interval') return 'TimeSeries';
  if (setting.card_id !== -1 || setting.card_item_id !== -1) return 'CustomIntervalItems';
  if (setting.board_id !== -1) return 'CustomIntervalCards';
  return 'CustomIntervalBoards';
}

/** Item content is HTML; a graph names it by its text. */
export function plainText(html: string): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

const num = (value: unknown) => Number(value ?? 0);

// ---------------------------------------------------------------------------------------------------------
// Summing by bucket

/** What is measured: the organisation, a board (-1: every board) and a card (-1: every card). */
interface Scope {
  orgId: number;
  boardId: number;
  cardId: number;
}

/** A range of one table's slots: quarter-hours (unit 0), or evaluation_totals' hours (1) and days (2). */
export interface Piece {
  unit: 0 | 1 | 2;
  lo: number;
  hi: number;
}

/**
 * [qlo, qhi) in quarter-hours as whole UTC days, then whole hours, then the quarter-hours left at either
 * end (decision 0582): a local day is 23-25 hourly rows and at most 6 quarter-hours, a month about 30
 * daily rows.
 */
export function piecesOf(qlo: number, qhi: number): Piece[] {
  const pieces: Piece[] = [];
  const hours = (a: number, b: number) => {
    const h0 = Math.ceil(a / TOTAL_UNITS.hour);
    const h1 = Math.floor(b / TOTAL_UNITS.hour);
    if (h0 >= h1) {
      if (a < b) pieces.push({ unit: 0, lo: a, hi: b });
      return;
    }
    if (a < h0 * TOTAL_UNITS.hour) pieces.push({ unit: 0, lo: a, hi: h0 * TOTAL_UNITS.hour });
    pieces.push({ unit: UNIT_CODES.hour, lo: h0, hi: h1 });
    if (h1 * TOTAL_UNITS.hour < b) pieces.push({ unit: 0, lo: h1 * TOTAL_UNITS.hour, hi: b });
  };
  const d0 = Math.ceil(qlo / TOTAL_UNITS.day);
  const d1 = Math.floor(qhi / TOTAL_UNITS.day);
  if (d0 >= d1) {
    hours(qlo, qhi);
    return pieces;
  }
  hours(qlo, d0 * TOTAL_UNITS.day);
  pieces.push({ unit: UNIT_CODES.day, lo: d0, hi: d1 });
  hours(d1 * TOTAL_UNITS.day, qhi);
  return pieces;
}

/**
 * Evaluations at one level (board or 0, card or 0: decision 0582), summed per key over ranges of time in
 * ms (on quarter-hour edges): each range read as its days, hours and quarter-hours. The ranges drive the
 * join (CROSS JOIN keeps them outside), so each piece is one range of a primary key.
 */
async function totalsOf(
  db: Db,
  orgId: number,
  ranges: { key: number; boardId: number; cardId: number; lo: number; hi: number }[],
): Promise<Map<number, Counts>> {
  const rows = ranges.flatMap(({ key, boardId, cardId, lo, hi }) =>
    piecesOf(lo / SLOT_MS, hi / SLOT_MS).map((p) => [key, boardId, cardId, p.unit, p.lo, p.hi]),
  );
  if (!rows.length) return new Map();
  return byEntity(
    db,
    sql`with r(k, b, c, u, lo, hi) as (${integerRows(db, rows, 6)})
      select x.k as id, sum(x.passed) as passed, sum(x.failed) as failed from (
        select r.k as k, q.passed as passed, q.failed as failed
        from r cross join evaluation_counts q
        where r.u = 0 and q.org_id = ${orgId} and q.board_id = r.b and q.card_id = r.c
          and q.slot >= r.lo and q.slot < r.hi
        union all
        select r.k as k, t.passed as passed, t.failed as failed
        from r cross join evaluation_totals t
        where r.u <> 0 and t.org_id = ${orgId} and t.unit = r.u and t.board_id = r.b and t.card_id = r.c
          and t.slot >= r.lo and t.slot < r.hi
      ) x
      group by x.k`,
  );
}

function evaluationsByBucket(ctx: Ctx, scope: Scope, buckets: Bucket[]): Promise<Counts[]> {
  const level = { boardId: Math.max(scope.boardId, 0), cardId: Math.max(scope.cardId, 0) };
  const ranges = buckets.map((b, key) => ({ key, ...level, lo: b.lo, hi: b.hi }));
  return totalsOf(ctx.db, scope.orgId, ranges).then((sums) =>
    buckets.map((_, key) => sums.get(key) ?? { ...ZERO }),
  );
}

/** A signed range of item_totals' slots at one unit: its rows are added (sign 1) or subtracted (-1). */
export interface SignedPiece {
  unit: number;
  lo: number;
  hi: number;
  sign: 1 | -1;
}

/** The oriented range from x to y (quarter-hours, multiples of the unit): +[x, y), or -[y, x) when y < x. */
function oriented(x: number, y: number, unit: number): SignedPiece[] {
  const size = ITEM_UNITS[unit]!;
  if (x === y) return [];
  return x < y
    ? [{ unit, lo: x / size, hi: y / size, sign: 1 }]
    : [{ unit, lo: y / size, hi: x / size, sign: -1 }];
}

/** `to` rounded down and up to the unit (one value when it is a multiple). */
function roundings(to: number, unit: number): number[] {
  const size = ITEM_UNITS[unit]!;
  const down = Math.floor(to / size) * size;
  return down === to ? [down] : [down, down + size];
}

/**
 * The rows at most (one per slot) that the way from `from` (a multiple of unit + 1's size) to `to` reads in
 * units up to `unit`: to `to` rounded down or up at this unit, then on from there in finer units.
 */
function edgeRows(from: number, to: number, unit: number): number {
  if (unit === 0) return Math.abs(to - from);
  let best = Infinity;
  for (const q of roundings(to, unit))
    best = Math.min(best, Math.abs(q - from) / ITEM_UNITS[unit]! + edgeRows(q, to, unit - 1));
  return best;
}

/** That way's pieces, oriented: what edgeRows counted. */
function edge(from: number, to: number, unit: number): SignedPiece[] {
  if (unit === 0) return oriented(from, to, 0);
  const rows = (q: number) => Math.abs(q - from) / ITEM_UNITS[unit]! + edgeRows(q, to, unit - 1);
  const q = roundings(to, unit).reduce((best, q) => (rows(q) < rows(best) ? q : best));
  return [...oriented(from, q, unit), ...edge(q, to, unit - 1)];
}

const negate = (pieces: SignedPiece[]) => pieces.map((p) => ({ ...p, sign: -p.sign as 1 | -1 }));

/**
 * [qlo, qhi) in quarter-hours as signed ranges of item_totals' units (decision 0627): one range of the
 * coarsest unit that pays, its ends rounded down or up and corrected in finer units, added or taken
 * away; of every choice, the one that reads fewest rows at most. A London summer day (23:00 to 23:00 UTC)
 * is its UTC day, less its last hour, plus the hour before it (3 rows, not 24); a year about 46 eight-day
 * blocks and a few days, hours and quarter-hours at each end, however many evaluations it holds.
 */
export function itemPiecesOf(qlo: number, qhi: number): SignedPiece[] {
  if (qlo >= qhi) return [];
  let best = { rows: qhi - qlo, unit: 0, a: qlo, b: qhi };
  for (let unit = 1; unit < ITEM_UNITS.length; unit++) {
    for (const a of roundings(qlo, unit))
      for (const b of roundings(qhi, unit)) {
        if (a >= b) continue;
        const rows = edgeRows(a, qlo, unit - 1) + (b - a) / ITEM_UNITS[unit]! + edgeRows(b, qhi, unit - 1);
        if (rows < best.rows) best = { rows, unit, a, b };
      }
  }
  if (best.unit === 0) return oriented(qlo, qhi, 0);
  return [
    ...negate(edge(best.a, qlo, best.unit - 1)),
    ...oriented(best.a, best.b, best.unit),
    ...edge(best.b, qhi, best.unit - 1),
  ];
}

/**
 * Items' answers on one board (0: every board), summed per key over ranges of time in ms (on quarter-hour
 * edges), each read as its signed pieces; `passFailOnly` counts only results of a Pass/Fail item (kind 1).
 * The ranges drive the join (CROSS JOIN keeps them outside), so each piece is one range of the primary key.
 * The results of evaluations still pending (decision 0751) are added in the same statement, so one snapshot
 * sees each evaluation either folded or pending, never both or neither.
 */
async function itemTotalsOf(
  db: Db,
  orgId: number,
  boardId: number,
  ranges: { key: number; itemId: number; lo: number; hi: number }[],
  passFailOnly: boolean,
): Promise<Map<number, Counts & { answers: number }>> {
  const pieces = ranges.flatMap(({ key, itemId, lo, hi }) =>
    itemPiecesOf(lo / SLOT_MS, hi / SLOT_MS).map((p) => [key, itemId, p.unit, p.lo, p.hi, p.sign]),
  );
  if (!pieces.length) return new Map();
  const whole = ranges
    .filter(({ lo, hi }) => lo < hi)
    .map(({ key, itemId, lo, hi }) => [key, itemId, lo, hi]);
  const kind = passFailOnly ? sql` and t.kind = 1` : sql``;
  const pendingKind = passFailOnly
    ? sql` and x.item_type = 'pass_fail'`
    : sql` and (x.item_type = 'pass_fail' or x.na = 1 or x.pass is not null)`;
  const board = boardId ? sql` and e.board_id = ${boardId}` : sql``;
  const result = await sql<{ id: unknown; passed: unknown; failed: unknown; na: unknown; answers: unknown }>`
    with r(k, i, u, lo, hi, s) as (${integerRows(db, pieces, 6)}),
      w(k, i, lo, hi) as (${integerRows(db, whole, 4)})
    select id, sum(passed) as passed, sum(failed) as failed, sum(na) as na, sum(answers) as answers
    from (
      select r.k as id, r.s * t.passed as passed, r.s * t.failed as failed, r.s * t.na as na,
        r.s * t.answers as answers
      from r cross join item_totals t
      where t.org_id = ${orgId} and t.board_id = ${boardId} and t.item_id = r.i and t.unit = r.u
        and t.slot >= r.lo and t.slot < r.hi${kind}
      union all
      select w.k, case when x.na = 0 and x.pass = 1 then 1 else 0 end,
        case when x.na = 0 and x.pass = 0 then 1 else 0 end, case when x.na = 1 then 1 else 0 end, 1
      from item_totals_pending p
        cross join evaluations e
        cross join results x
        cross join w
      where p.org_id = ${orgId} and e.id = p.evaluation_id${board} and x.evaluation_id = p.evaluation_id
        and x.item_id = w.i and e.completed_at >= w.lo and e.completed_at < w.hi${pendingKind}
    ) a
    group by id`.execute(db);
  return new Map(
    result.rows.map((r) => [
      num(r.id),
      { passed: num(r.passed), failed: num(r.failed), na: num(r.na), answers: num(r.answers) },
    ]),
  );
}

/** One item's answers per bucket, from item_totals: results of any type, as they were always counted. */
async function itemByBucket(ctx: Ctx, scope: Scope, itemId: number, buckets: Bucket[]): Promise<Counts[]> {
  const ranges = buckets.map((b, key) => ({ key, itemId, lo: b.lo, hi: b.hi }));
  const sums = await itemTotalsOf(ctx.db, scope.orgId, Math.max(scope.boardId, 0), ranges, false);
  return buckets.map((_, key) => {
    const s = sums.get(key);
    return s ? { passed: s.passed, failed: s.failed, na: s.na } : { ...ZERO };
  });
}

// ---------------------------------------------------------------------------------------------------------
// One row per board, card or item

async function byEntity(
  db: Db,
  text: RawBuilder<{ id: unknown; passed: unknown; failed: unknown; na?: unknown }>,
): Promise<Map<number, Counts>> {
  const result = await text.execute(db);
  return new Map(
    result.rows.map((r) => [num(r.id), { passed: num(r.passed), failed: num(r.failed), na: num(r.na) }]),
  );
}

interface Named {
  id: number;
  label: string;
  live: boolean;
}

/** Every live entity (zeros included), then the deleted ones that have figures in the period. */
function entityRows(entities: Named[], counts: Map<number, Counts>): ReportRow[] {
  return entities
    .filter((e) => e.live || counts.has(e.id))
    .map((e) => row(e.label, null, e.id, counts.get(e.id) ?? ZERO));
}

async function boardRows(ctx: Ctx, lo: number, hi: number): Promise<ReportRow[]> {
  const orgId = ctx.actor.orgId;
  const boards = await ctx.db
    .selectFrom('boards')
    .select(['id', 'name', 'deleted_at'])
    .where('org_id', '=', orgId)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
  if (!boards.length) return [];
  const counts = await totalsOf(
    ctx.db,
    orgId,
    boards.map((b) => ({ key: b.id, boardId: b.id, cardId: 0, lo, hi })),
  );
  return entityRows(
    boards.map((b) => ({ id: b.id, label: b.name, live: b.deleted_at === null })),
    counts,
  );
}

async function cardRows(ctx: Ctx, boardId: number, lo: number, hi: number): Promise<ReportRow[]> {
  const orgId = ctx.actor.orgId;
  // The board's cards now, and those it has figures of in the days the period touches.
  const onBoard = await ctx.db
    .selectFrom('board_cards')
    .select('card_id')
    .where('org_id', '=', orgId)
    .where('board_id', '=', boardId)
    .execute();
  const day = SLOT_MS * TOTAL_UNITS.day;
  const counted = await ctx.db
    .selectFrom('evaluation_totals')
    .select('card_id')
    .distinct()
    .where('org_id', '=', orgId)
    .where('unit', '=', UNIT_CODES.day)
    .where('board_id', '=', boardId)
    .where('card_id', '!=', 0)
    .where('slot', '>=', Math.floor(lo / day))
    .where('slot', '<', Math.ceil(hi / day))
    .execute();
  const ids = [...new Set([...onBoard, ...counted].map((r) => r.card_id))];
  if (!ids.length) return [];
  const counts = await totalsOf(
    ctx.db,
    orgId,
    ids.map((id) => ({ key: id, boardId, cardId: id, lo, hi })),
  );
  const cards = await ctx.db
    .selectFrom('cards')
    .select(['id', 'name', 'deleted_at'])
    .where('org_id', '=', orgId)
    .where('id', 'in', ids)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
  const live = new Set(onBoard.map((r) => r.card_id));
  return entityRows(
    cards.map((c) => ({ id: c.id, label: c.name, live: c.deleted_at === null && live.has(c.id) })),
    counts,
  );
}

async function itemRows(
  ctx: Ctx,
  scope: Scope,
  itemId: number,
  lo: number,
  hi: number,
): Promise<ReportRow[]> {
  const orgId = ctx.actor.orgId;
  // Every item the card has had (its results name only those), then their Pass/Fail answers in the period.
  const items = await ctx.db
    .selectFrom('card_items')
    .select(['id', 'content', 'is_deleted', 'type'])
    .where('org_id', '=', orgId)
    .where('card_id', '=', scope.cardId)
    .$if(itemId !== -1, (qb) => qb.where('id', '=', itemId))
    .orderBy('position')
    .orderBy('id')
    .execute();
  const sums = await itemTotalsOf(
    ctx.db,
    orgId,
    Math.max(scope.boardId, 0),
    items.map((i) => ({ key: i.id, itemId: i.id, lo, hi })),
    true,
  );
  // An item has figures in the period when it has a Pass/Fail answer there.
  const counts = new Map(
    [...sums]
      .filter(([, s]) => s.answers > 0)
      .map(([id, s]) => [id, { passed: s.passed, failed: s.failed, na: s.na }]),
  );
  return entityRows(
    items
      .filter((i) => i.type === 'pass_fail' || counts.has(i.id))
      .map((i) => ({ id: i.id, label: plainText(i.content), live: i.is_deleted === 0 })),
    counts,
  );
}

// ---------------------------------------------------------------------------------------------------------
// The call

/** The setting's board, card and item belong to the organisation (deleted ones count); answers the card. */
async function checkTargets(ctx: Ctx, setting: DashboardSettingInput): Promise<number> {
  const orgId = ctx.actor.orgId;
  if (setting.board_id !== -1) {
    const board = await ctx.db
      .selectFrom('boards')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', setting.board_id)
      .executeTakeFirst();
    if (!board) throw notFound(messages.boardNotFound);
  }
  if (setting.card_id !== -1) {
    const card = await ctx.db
      .selectFrom('cards')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', setting.card_id)
      .executeTakeFirst();
    if (!card) throw notFound(messages.cardNotFound);
  }
  if (setting.card_item_id === -1) return setting.card_id;
  const item = await ctx.db
    .selectFrom('card_items')
    .select(['id', 'card_id'])
    .where('org_id', '=', orgId)
    .where('id', '=', setting.card_item_id)
    .executeTakeFirst();
  if (!item) throw notFound(messages.itemNotFound);
  if (setting.card_id !== -1 && item.card_id !== setting.card_id)
    throw badRequest(messages.itemNotOnCard, 'card_item_id');
  return item.card_id;
}

export async function getReport(ctx: Ctx, setting: DashboardSettingInput, timeZone: string): Promise<Report> {
  const zone = zoneOf(timeZone);
  if (!zone) throw badRequest(messages.unknownZone(timeZone), 'timeZone');
  const mode = modeOf(setting);
  const from = periodPoint(zone, ctx.now, setting.start_number, setting.start_duration, false);
  const to = periodPoint(zone, ctx.now, setting.end_number, setting.end_duration, true);
  if (to <= from) throw badRequest(messages.periodBackwards, 'end_number');
  const cardId = await checkTargets(ctx, setting);
  const scope: Scope = { orgId: ctx.actor.orgId, boardId: setting.board_id, cardId };
  const itemId = setting.card_item_id;
  const measure = itemId !== -1 || mode === 'CustomIntervalItems' ? 'items' : 'evaluations';
  // "Now" includes what completed in its very millisecond.
  const until = setting.end_number === -1 ? to + 1 : to;
  const period = {
    mode,
    measure,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
  } as const;

  if (setting.time_division === 'Custom Interval') {
    const { lo, hi } = countedRange(from, until);
    let rows: ReportRow[];
    if (mode === 'CustomIntervalItems') rows = await itemRows(ctx, scope, itemId, lo, hi);
    else if (mode === 'CustomIntervalCards') rows = await cardRows(ctx, setting.board_id, lo, hi);
    else rows = await boardRows(ctx, lo, hi);
    return { ...period, rows };
  }

  const division = setting.time_division;
  // The period may reach back as far as the division's limit, plus the current, partial unit.
  const buckets = bucketsOf(zone, division, from, until, PERIOD_LIMITS[division] + 1);
  if (!buckets) throw badRequest(periodTooLongMessage(division), 'start_number');
  const counts =
    measure === 'items'
      ? await itemByBucket(ctx, scope, itemId, buckets)
      : await evaluationsByBucket(ctx, scope, buckets);
  return { ...period, rows: buckets.map((b, i) => row(b.label, b.start, null, counts[i]!)) };
}
