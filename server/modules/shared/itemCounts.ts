/**
 * Keeps item_totals exact (docs/decisions/0627, 0751): item_totals plus the results of the evaluations in
 * item_totals_pending is, at every commit, every completed evaluation's results counted once.
 * - A completion calls pendItemResults in its transaction: one row, not item_totals' 64.
 * - foldItemTotals moves a batch of pending evaluations into item_totals, in one transaction.
 * - A deletion of a completed evaluation calls uncountItemResults in its transaction, with the results it
 *   deleted: a pending evaluation only leaves the list, a folded one is subtracted.
 * Results are never changed otherwise (an item's edit or deletion leaves the answers already given as they
 * were), and unfinished evaluations have none.
 */
import { sql, type Selectable } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import type { ItemTotalsTable } from '../../db/schema.ts';
import { SLOT_MS } from '../../db/migrations/0005_analytics.ts';
import { ITEM_UNITS } from '../../db/migrations/0027_item_totals.ts';
import { counterShard, type CountedEvaluation as EvaluationCounted } from './evaluationCounts.ts';

export interface CountedResult {
  item_id: number;
  item_type: string;
  pass: number | null;
  na: number;
}

/** What places a completed evaluation's counts: its id chooses the shard of a single evaluation's rows. */
type CountedEvaluation = Pick<EvaluationCounted, 'id' | 'orgId' | 'boardId' | 'completedAt'>;

type ItemTotalRow = Selectable<ItemTotalsTable>;

/** An upsert's rows at most: 11 values each, under SQLite's and PostgreSQL's limits on a statement's values. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * item_totals' rows for evaluations' results, added (delta 1) or removed (-1): for each item, its board's
 * and every board's row at each unit of time. Rows of one key are merged (a statement may not touch a row
 * twice), and they come in key order, so concurrent writers on PostgreSQL lock them in one order.
 */
function itemTotalRows(
  evaluations: readonly { evaluation: CountedEvaluation; results: readonly CountedResult[] }[],
  delta: 1 | -1,
  shard: number,
): ItemTotalRow[] {
  const rows = new Map<string, ItemTotalRow>();
  for (const { evaluation, results } of evaluations) {
    const quarter = Math.floor(evaluation.completedAt / SLOT_MS);
    for (const r of results) {
      const kind = r.item_type === 'pass_fail' ? 1 : 0;
      const passed = r.na === 0 && r.pass === 1 ? 1 : 0;
      const failed = r.na === 0 && r.pass === 0 ? 1 : 0;
      const na = r.na === 1 ? 1 : 0;
      // As the backfill: every Pass/Fail result; another item's only when it counts something.
      if (kind === 0 && passed + failed + na === 0) continue;
      for (const [unit, size] of ITEM_UNITS.entries()) {
        const slot = Math.floor(quarter / size);
        for (const boardId of [0, evaluation.boardId]) {
          const key = `${evaluation.orgId}/${unit}/${boardId}/${r.item_id}/${slot}/${kind}`;
          let row = rows.get(key);
          if (!row) {
            row = {
              org_id: evaluation.orgId,
              board_id: boardId,
              item_id: r.item_id,
              unit,
              slot,
              kind,
              shard,
              passed: 0,
              failed: 0,
              na: 0,
              answers: 0,
            };
            rows.set(key, row);
          }
          row.passed += passed * delta;
          row.failed += failed * delta;
          row.na += na * delta;
          row.answers += delta;
        }
      }
    }
  }
  return [...rows.values()].sort(
    (x, y) =>
      x.org_id - y.org_id ||
      x.unit - y.unit ||
      x.board_id - y.board_id ||
      x.item_id - y.item_id ||
      x.slot - y.slot ||
      x.kind - y.kind,
  );
}

async function upsertItemTotals(db: Db, rows: readonly ItemTotalRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    await db
      .insertInto('item_totals')
      .values(rows.slice(start, start + ROWS_PER_STATEMENT))
      .onConflict((oc) =>
        oc.columns(['org_id', 'unit', 'board_id', 'item_id', 'slot', 'kind', 'shard']).doUpdateSet((eb) => ({
          passed: eb('item_totals.passed', '+', eb.ref('excluded.passed')),
          failed: eb('item_totals.failed', '+', eb.ref('excluded.failed')),
          na: eb('item_totals.na', '+', eb.ref('excluded.na')),
          answers: eb('item_totals.answers', '+', eb.ref('excluded.answers')),
        })),
      )
      .execute();
  }
}

/** Adds (delta 1) or removes (delta -1) one completed evaluation's results in item_totals itself. */
export async function countItemResults(
  db: Db,
  evaluation: CountedEvaluation,
  results: readonly CountedResult[],
  delta: 1 | -1,
): Promise<void> {
  await upsertItemTotals(
    db,
    itemTotalRows([{ evaluation, results }], delta, counterShard(db, evaluation.id)),
  );
}

/** A completion's results are counted by the fold (decision 0751): one row, appended in id order. */
export async function pendItemResults(db: Db, evaluation: { id: number; orgId: number }): Promise<void> {
  await pendItemResultsWrite(db, evaluation).execute();
}

/**
 * pendItemResults' write, for a caller that makes it together with its own (decision 0755). A row already
 * there is left as it is: only a completion that lost the race to claim the evaluation finds one, and its
 * transaction fails on the lost claim (claimTogether), not here.
 */
export function pendItemResultsWrite(db: Db, evaluation: { id: number; orgId: number }) {
  return db
    .insertInto('item_totals_pending')
    .values({ evaluation_id: evaluation.id, org_id: evaluation.orgId })
    .onConflict((oc) => oc.column('evaluation_id').doNothing());
}

/**
 * A completed evaluation's deletion, with the results it deleted: still pending, it only leaves the list;
 * folded, it is subtracted. On PostgreSQL a fold that claimed it first holds its pending row until that fold
 * commits; this deletion then finds no row and subtracts what the fold added.
 */
export async function uncountItemResults(
  db: Db,
  evaluation: CountedEvaluation,
  results: readonly CountedResult[],
): Promise<void> {
  const pending = await db
    .deleteFrom('item_totals_pending')
    .where('evaluation_id', '=', evaluation.id)
    .returning('evaluation_id')
    .executeTakeFirst();
  if (!pending) await countItemResults(db, evaluation, results, -1);
}

/**
 * The pending evaluations a fold takes at most, in one transaction. On SQLite the fold's statements run on
 * the event loop (its upsert reads and dirties a page per key, about 64 an evaluation): one evaluation a
 * transaction, so a request waits for one evaluation's fold at most (decision 0752). On PostgreSQL they run
 * on a pooled connection and lock only item_totals' rows, which no request writes: batches of 20.
 */
export const FOLD_BATCH = { sqlite: 1, postgres: 20 } as const;

export const foldBatch = (db: Db): number => FOLD_BATCH[dialectOf(db)];

/** ITEM_UNITS as rows (unit, size): a derived table both databases read (no VALUES column names). */
const UNITS_TABLE = sql.raw(
  `(${ITEM_UNITS.map((size, unit) => `select ${unit} as unit, ${size} as size`).join(' union all ')})`,
);

/**
 * The fold's one statement: the given evaluations' results summed in the database into item_totals' rows
 * (each Pass/Fail result; another item's only when it is N/A or answered Pass or Fail, as itemTotalRows),
 * per item, board (its own and 0, every board) and unit of time, upserted in key order so concurrent
 * writers on PostgreSQL lock rows in one order. No row is built in JavaScript (decision 0756).
 */
function foldStatement(ids: readonly number[], shard: number) {
  return sql`
    insert into item_totals (org_id, board_id, item_id, unit, slot, kind, shard, passed, failed, na, answers)
    select e.org_id, case when b.whole = 1 then 0 else e.board_id end as board_id, r.item_id, u.unit,
      (e.completed_at / ${sql.lit(SLOT_MS)}) / u.size as slot,
      case when r.item_type = 'pass_fail' then 1 else 0 end as kind, ${shard},
      sum(case when r.na = 0 and r.pass = 1 then 1 else 0 end),
      sum(case when r.na = 0 and r.pass = 0 then 1 else 0 end),
      sum(case when r.na = 1 then 1 else 0 end),
      count(*)
    from evaluations e
    inner join results r on r.org_id = e.org_id and r.evaluation_id = e.id
    cross join ${UNITS_TABLE} u
    cross join (select 0 as whole union all select 1) b
    where e.id in (${sql.join(ids)}) and e.completed_at is not null
      and (r.item_type = 'pass_fail' or r.na = 1 or r.pass is not null)
    group by e.org_id, u.unit, 2, r.item_id, 5, 6
    order by e.org_id, u.unit, 2, r.item_id, 5, 6
    on conflict (org_id, unit, board_id, item_id, slot, kind, shard) do update set
      passed = item_totals.passed + excluded.passed,
      failed = item_totals.failed + excluded.failed,
      na = item_totals.na + excluded.na,
      answers = item_totals.answers + excluded.answers`;
}

/**
 * Moves up to `limit` pending evaluations (the oldest) into item_totals, in one transaction: their rows
 * are deleted and their results summed into item_totals by one statement, merged by key, so evaluations of
 * one item and hour cost one row at each unit between them. Answers how many it claimed (0: nothing
 * pending, or another process holds them).
 */
export async function foldItemTotals(db: Db, limit = foldBatch(db)): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .deleteFrom('item_totals_pending')
      .where('evaluation_id', 'in', (eb) =>
        eb.selectFrom('item_totals_pending').select('evaluation_id').orderBy('evaluation_id').limit(limit),
      )
      .returning('evaluation_id')
      .execute();
    if (!claimed.length) return 0;
    const ids = claimed.map((r) => Number(r.evaluation_id)).sort((a, b) => a - b);
    await foldStatement(ids, counterShard(trx, ids[0]!)).execute(trx);
    return claimed.length;
  });
}
