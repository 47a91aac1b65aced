/**
 * Folds pending completions into item_totals (docs/decisions/0751), every process on its own timer: the
 * pending rows are in the database and each fold claims its batch by deleting it, so processes never fold
 * one evaluation twice, and a process that stops leaves its completions to the next fold of any other.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { unsynced } from '../db/unsynced.ts';
import { repeat } from './repeat.ts';
import { foldBatch, foldItemTotals } from '../modules/shared/itemCounts.ts';

/** How often a process folds: readers add what is pending, so this bounds their extra rows, not accuracy. */
export const ITEM_TOTALS_FOLD_MS = 1_000;

/**
 * Folds until nothing is pending, a batch a transaction, letting requests run between them. The fold's
 * commits are not synced on SQLite (decision 0752): one lost with the machine leaves its evaluations
 * pending, and the next fold takes them again.
 */
export async function foldAllItemTotals(db: Db, signal?: AbortSignal): Promise<number> {
  // A cheap look first: an idle fold takes no write lock (SQLite) and opens no transaction.
  const any = await db.selectFrom('item_totals_pending').select('evaluation_id').limit(1).executeTakeFirst();
  if (!any) return 0;
  const batch = foldBatch(db);
  let folded = 0;
  for (;;) {
    // Stopped (the process is closing): what is left stays pending for the next fold of any process.
    if (signal?.aborted) return folded;
    const claimed = await unsynced(db, (connection) => foldItemTotals(connection, batch));
    folded += claimed;
    // Fewer than a batch: the rest, if any, is another process's to fold (or arrived since).
    if (claimed < batch) return folded;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export function startItemTotalsFold(
  db: Db,
  log: FastifyBaseLogger,
  everyMs: number = ITEM_TOTALS_FOLD_MS,
): () => void {
  return repeat(
    (signal) => foldAllItemTotals(db, signal),
    everyMs,
    (error) => log.warn({ err: error }, 'could not fold item totals'),
  );
}
