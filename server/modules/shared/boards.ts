/** Loading a board within the organisation: used by the boards, cards, evaluation and feedback rules. */
import type { Db } from '../../db/index.ts';
import { notFound } from '../../errors.ts';

export const boardMessages = { boardNotFound: 'The board was not found.' };

/**
 * A live board of the organisation, or "not found". `onlyBoardId` (an anonymous key's board) narrows: any
 * other board is not found. `lock` takes its row for the rest of the transaction (PostgreSQL only: pass
 * `dialect === 'postgres'`), so two calls changing one board's cards run one after the other; a no-key lock
 * still lets evaluations and feedback reference the board meanwhile.
 */
export async function findLiveBoard(
  db: Db,
  where: { orgId: number; boardId: number; onlyBoardId?: number | undefined },
  lock = false,
) {
  if (where.onlyBoardId !== undefined && where.onlyBoardId !== where.boardId) {
    throw notFound(boardMessages.boardNotFound);
  }
  const board = await db
    .selectFrom('boards')
    .select(['id', 'name', 'name_key', 'has_anonymous'])
    .where('org_id', '=', where.orgId)
    .where('id', '=', where.boardId)
    .where('deleted_at', 'is', null)
    .$if(lock, (qb) => qb.forNoKeyUpdate())
    .executeTakeFirst();
  if (!board) throw notFound(boardMessages.boardNotFound);
  return board;
}
