/**
 * Keeps evaluation_counts exact (docs/decisions/0420): every path that completes or deletes a completed
 * evaluation calls countEvaluation in the same transaction. Unfinished evaluations are never counted, so
 * purging them changes nothing here.
 */
import { dialectOf } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { writeTogether, type Write } from '../../db/together.ts';
import { SLOT_MS } from '../../db/migrations/0005_analytics.ts';
import { TOTAL_UNITS, UNIT_CODES } from '../../db/migrations/0010_evaluation_totals.ts';

export { SLOT_MS };

/** PostgreSQL: the counters' rows of a key are spread over this many shards (decision 0746). */
export const COUNTER_SHARDS = 8;

/**
 * The shard an evaluation's counts go to: by its id, so its deletion subtracts from the rows its completion
 * added to. On PostgreSQL, completions of different shards never wait on each other's row locks; SQLite has
 * one writer at a time anyway, so it keeps one shard and its reports read the fewest rows.
 */
export function counterShard(db: Db, evaluationId: number): number {
  return dialectOf(db) === 'postgres' ? evaluationId % COUNTER_SHARDS : 0;
}

export interface CountedEvaluation {
  /** The evaluation's id: it chooses the shard. */
  id: number;
  orgId: number;
  boardId: number;
  cardId: number;
  completedAt: number;
  pass: boolean;
}

/**
 * Adds (delta 1) or removes (delta -1) one completed evaluation at its four levels (its board and card, its
 * board, its card on every board, the organisation) by quarter-hour, then by hour and day
 * (evaluation_totals, decision 0582). The rows are always written in the same order, from the most
 * particular to the organisation's, in statements of one shape, so concurrent writers on PostgreSQL take
 * their row locks in one order; callers run it last in their transaction, so the shared rows are held
 * briefly.
 */
export async function countEvaluation(db: Db, evaluation: CountedEvaluation, delta: 1 | -1): Promise<void> {
  await writeTogether(db, evaluationCountWrites(db, evaluation, delta));
}

/**
 * countEvaluation's two writes, for a caller that makes them together with its own (writeTogether,
 * decision 0755); always in this order, so the rows' locks are taken in one order by every writer.
 */
export function evaluationCountWrites(db: Db, evaluation: CountedEvaluation, delta: 1 | -1): Write[] {
  const slot = Math.floor(evaluation.completedAt / SLOT_MS);
  const shard = counterShard(db, evaluation.id);
  const passed = evaluation.pass ? delta : 0;
  const failed = evaluation.pass ? 0 : delta;
  const row = (boardId: number, cardId: number) => ({
    org_id: evaluation.orgId,
    board_id: boardId,
    card_id: cardId,
    slot,
    shard,
    passed,
    failed,
  });
  const counts = db
    .insertInto('evaluation_counts')
    .values([
      row(evaluation.boardId, evaluation.cardId),
      row(evaluation.boardId, 0),
      row(0, evaluation.cardId),
      row(0, 0),
    ])
    .onConflict((oc) =>
      oc.columns(['org_id', 'board_id', 'card_id', 'slot', 'shard']).doUpdateSet((eb) => ({
        passed: eb('evaluation_counts.passed', '+', eb.ref('excluded.passed')),
        failed: eb('evaluation_counts.failed', '+', eb.ref('excluded.failed')),
      })),
    );
  const total = (unit: keyof typeof TOTAL_UNITS, boardId: number, cardId: number) => ({
    org_id: evaluation.orgId,
    unit: UNIT_CODES[unit],
    board_id: boardId,
    card_id: cardId,
    slot: Math.floor(slot / TOTAL_UNITS[unit]),
    shard,
    passed,
    failed,
  });
  const totals = db
    .insertInto('evaluation_totals')
    .values(
      (['hour', 'day'] as const).flatMap((unit) => [
        total(unit, evaluation.boardId, evaluation.cardId),
        total(unit, evaluation.boardId, 0),
        total(unit, 0, evaluation.cardId),
        total(unit, 0, 0),
      ]),
    )
    .onConflict((oc) =>
      oc.columns(['org_id', 'unit', 'board_id', 'card_id', 'slot', 'shard']).doUpdateSet((eb) => ({
        passed: eb('evaluation_totals.passed', '+', eb.ref('excluded.passed')),
        failed: eb('evaluation_totals.failed', '+', eb.ref('excluded.failed')),
      })),
    );
  return [counts, totals];
}
