/**
 * Keeps evaluation_counts exact (docs/decisions/0420): every path that completes or deletes a completed
 * evaluation calls countEvaluation in the same transaction. Unfinished evaluations are never counted, so
 * purging them changes nothing here.
 */
import type { Db } from '../../db/index.ts';
import { SLOT_MS } from '../../db/migrations/0005_analytics.ts';

export { SLOT_MS };

export interface CountedEvaluation {
  orgId: number;
  boardId: number;
  cardId: number;
  completedAt: number;
  pass: boolean;
}

/**
 * Adds (delta 1) or removes (delta -1) one completed evaluation at its three levels. The rows are always
 * written in the same order (card, board, organisation), so concurrent writers on PostgreSQL take their
 * row locks in one order; callers run it last in their transaction, so the organisation row is held briefly.
 */
export async function countEvaluation(db: Db, evaluation: CountedEvaluation, delta: 1 | -1): Promise<void> {
  const slot = Math.floor(evaluation.completedAt / SLOT_MS);
  const passed = evaluation.pass ? delta : 0;
  const failed = evaluation.pass ? 0 : delta;
  const row = (boardId: number, cardId: number) => ({
    org_id: evaluation.orgId,
    board_id: boardId,
    card_id: cardId,
    slot,
    passed,
    failed,
  });
  await db
    .insertInto('evaluation_counts')
    .values([row(evaluation.boardId, evaluation.cardId), row(evaluation.boardId, 0), row(0, 0)])
    .onConflict((oc) =>
      oc.columns(['org_id', 'board_id', 'card_id', 'slot']).doUpdateSet((eb) => ({
        passed: eb('evaluation_counts.passed', '+', eb.ref('excluded.passed')),
        failed: eb('evaluation_counts.failed', '+', eb.ref('excluded.failed')),
      })),
    )
    .execute();
}
