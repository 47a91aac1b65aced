/**
 * Keeps item_totals exact (docs/decisions/0627): every path that completes an evaluation with its results,
 * or deletes a completed one with its results, calls countItemResults in the same transaction, with the
 * results it wrote or deleted. Results are never changed otherwise (an item's edit or deletion leaves the
 * answers already given as they were), and unfinished evaluations have none.
 */
import type { Db } from '../../db/index.ts';
import { SLOT_MS } from '../../db/migrations/0005_analytics.ts';
import { ITEM_UNITS } from '../../db/migrations/0027_item_totals.ts';
import { counterShard } from './evaluationCounts.ts';

export interface CountedResult {
  item_id: number;
  item_type: string;
  pass: number | null;
  na: number;
}

/**
 * Adds (delta 1) or removes (delta -1) one completed evaluation's results: for each item, its board's and
 * every board's row at each unit of time. The rows are written in one statement in key order (by unit, then
 * every board's before the board's, by item), so concurrent writers on PostgreSQL lock them in one order.
 */
export async function countItemResults(
  db: Db,
  evaluation: { id: number; orgId: number; boardId: number; completedAt: number },
  results: readonly CountedResult[],
  delta: 1 | -1,
): Promise<void> {
  const quarter = Math.floor(evaluation.completedAt / SLOT_MS);
  const shard = counterShard(db, evaluation.id);
  // One entry per (item, kind): an evaluation answers an item once, but a statement may not touch a row twice.
  const byItem = new Map<
    string,
    { item: number; kind: number; p: number; f: number; n: number; a: number }
  >();
  for (const r of results) {
    const kind = r.item_type === 'pass_fail' ? 1 : 0;
    const p = r.na === 0 && r.pass === 1 ? 1 : 0;
    const f = r.na === 0 && r.pass === 0 ? 1 : 0;
    const n = r.na === 1 ? 1 : 0;
    // As the backfill: every Pass/Fail result; another item's only when it counts something.
    if (kind === 0 && p + f + n === 0) continue;
    const key = `${r.item_id}/${kind}`;
    const entry = byItem.get(key) ?? { item: r.item_id, kind, p: 0, f: 0, n: 0, a: 0 };
    entry.p += p;
    entry.f += f;
    entry.n += n;
    entry.a += 1;
    byItem.set(key, entry);
  }
  if (!byItem.size) return;
  const entries = [...byItem.values()].sort((x, y) => x.item - y.item || x.kind - y.kind);
  const rows = ITEM_UNITS.flatMap((size, unit) =>
    [0, evaluation.boardId].flatMap((boardId) =>
      entries.map((e) => ({
        org_id: evaluation.orgId,
        board_id: boardId,
        item_id: e.item,
        unit,
        slot: Math.floor(quarter / size),
        kind: e.kind,
        shard,
        passed: e.p * delta,
        failed: e.f * delta,
        na: e.n * delta,
        answers: e.a * delta,
      })),
    ),
  );
  await db
    .insertInto('item_totals')
    .values(rows)
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
