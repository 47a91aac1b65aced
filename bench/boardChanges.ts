/**
 * Changes to a board as the benches make them (decisions 0784, 0786): its revision and one UTC day's, as
 * the triggers change them for a write of a completed evaluation of that day. The server's next
 * get-evaluations of the board then reads again the rows from that day on: today's for a completion or
 * feedback of today, the whole window's for a write of its first day.
 */
import type { Db } from '../server/db/index.ts';

const DAY = 24 * 60 * 60_000;

/** The UTC day a write of `instant` changes (migration 0032). */
export const dayOf = (instant: number) => Math.floor(instant / DAY);

export async function changeBoardDay(db: Db, boardId: number, day: number): Promise<void> {
  const revision = Math.floor(Math.random() * Number.MAX_SAFE_INTEGER);
  await db
    .insertInto('board_revisions')
    .values({ board_id: boardId, revision })
    .onConflict((oc) => oc.column('board_id').doUpdateSet({ revision }))
    .execute();
  await db
    .insertInto('board_day_revisions')
    .values({ board_id: boardId, day, revision })
    .onConflict((oc) => oc.columns(['board_id', 'day']).doUpdateSet({ revision }))
    .execute();
}
