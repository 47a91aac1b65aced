/**
 * Boards: named groups of at most 15 cards (docs/product-decisions.md). Boards are soft-deleted; a board's cards are
 * the rows of board_cards whose card is live. Every query names the organisation; another organisation's
 * board is answered as not found.
 */
import type { Board, Usage } from '../../../common/api/entities.ts';
import { MAX_CARDS_PER_BOARD } from '../../../common/constants.ts';
import { nameKey, messages as rules } from '../../../common/validation.ts';
import type { CallContext, UserActor } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { changeBoardRevisions } from '../shared/boardAnswers.ts';
import { boardMessages, findLiveBoard } from '../shared/boards.ts';
import { cardMessages, findLiveCard } from '../shared/cards.ts';
import { ensureNameFree, guardName, unique } from '../shared/names.ts';
import { checkOwnOrganisation, departmentsOf, liveCount, planMessages } from '../shared/plan.ts';

type Ctx = CallContext<UserActor>;

export const messages = {
  ...boardMessages,
  boardPlanLimit: planMessages.boardPlanLimit,
  boardCardLimit: rules.boardCardLimit(MAX_CARDS_PER_BOARD),
};

interface BoardRow {
  id: number;
  name: string;
  has_anonymous: 0 | 1;
}

function presentBoard(row: BoardRow, cardIds: number[]): Board {
  return { id: row.id, name: row.name, cardIDs: cardIds, hasAnonymous: row.has_anonymous === 1 };
}

// get-boards' two statements, prepared once (decision 0753): every page of the app asks for the boards.
const liveBoardCards = preparedQuery((db, p: { orgId: number }) =>
  db
    .selectFrom('board_cards')
    .innerJoin('cards', 'cards.id', 'board_cards.card_id')
    .innerJoin('boards', 'boards.id', 'board_cards.board_id')
    .select(['board_cards.board_id', 'board_cards.card_id'])
    .where('board_cards.org_id', '=', p.orgId)
    .where('cards.deleted_at', 'is', null)
    .where('boards.deleted_at', 'is', null)
    .orderBy('cards.name_key')
    .orderBy('cards.id'),
);

const liveBoards = preparedQuery((db, p: { orgId: number }) =>
  db
    .selectFrom('boards')
    .select(['id', 'name', 'has_anonymous'])
    .where('org_id', '=', p.orgId)
    .where('deleted_at', 'is', null)
    .orderBy('name_key')
    .orderBy('id'),
);

/** The live cards on each of the organisation's live boards, in card name order, in one query. */
async function cardIdsByBoard(db: Db, orgId: number): Promise<Map<number, number[]>> {
  const rows = await liveBoardCards.all(db, { orgId });
  const byBoard = new Map<number, number[]>();
  for (const row of rows) {
    const list = byBoard.get(row.board_id) ?? [];
    list.push(row.card_id);
    byBoard.set(row.board_id, list);
  }
  return byBoard;
}

function findBoard(ctx: Ctx, id: number, lock = false) {
  return findLiveBoard(ctx.db, { orgId: ctx.actor.orgId, boardId: id }, lock && ctx.dialect === 'postgres');
}

/**
 * A board's requested cards: at most 15 distinct ones (repeats are harmless), every one a live card of the
 * organisation. They are share-locked on PostgreSQL so none is deleted before the board is saved. Answers
 * the ids in card name order.
 */
async function requireBoardCards(ctx: Ctx, cardIds: number[]): Promise<number[]> {
  const ids = unique(cardIds);
  if (ids.length > MAX_CARDS_PER_BOARD) throw badRequest(messages.boardCardLimit, 'cardIDs');
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('cards')
    .select('id')
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .orderBy('name_key')
    .orderBy('id')
    .$if(ctx.dialect === 'postgres', (qb) => qb.forShare())
    .execute();
  if (rows.length !== ids.length) throw notFound(cardMessages.cardNotFound);
  return rows.map((r) => r.id);
}

/** Stops anonymous keys of a board working at once, even if anonymous evaluation is turned on again. */
async function revokeAnonymousKeys(ctx: Ctx, boardId: number) {
  await ctx.db
    .updateTable('anonymous_keys')
    .set({ revoked_at: ctx.now })
    .where('org_id', '=', ctx.actor.orgId)
    .where('board_id', '=', boardId)
    .where('revoked_at', 'is', null)
    .execute();
}

// ---------------------------------------------------------------------------------------------------------
// Reading

export async function listBoards(ctx: Ctx): Promise<Board[]> {
  const rows = await liveBoards.all(ctx.db, { orgId: ctx.actor.orgId });
  const cards = await cardIdsByBoard(ctx.db, ctx.actor.orgId);
  return rows.map((row) => presentBoard(row, cards.get(row.id) ?? []));
}

export async function boardsUsed(ctx: Ctx, orgName: string | undefined): Promise<Usage> {
  checkOwnOrganisation(ctx.actor, orgName);
  const [total, used] = await Promise.all([departmentsOf(ctx), liveCount(ctx.db, 'boards', ctx.actor.orgId)]);
  return { used, total };
}

// ---------------------------------------------------------------------------------------------------------
// Changing

interface BoardInput {
  name: string;
  cardIDs: number[];
  hasAnonymous: boolean;
}

export async function addBoard(ctx: Ctx, input: BoardInput): Promise<Board> {
  const { db, now, actor } = ctx;
  const total = await departmentsOf(ctx, true);
  if ((await liveCount(db, 'boards', actor.orgId)) >= total) throw conflict(messages.boardPlanLimit(total));
  const cardIds = await requireBoardCards(ctx, input.cardIDs);
  await ensureNameFree(db, 'boards', { orgId: actor.orgId, name: input.name }, 'name');
  const row = await guardName('name', () =>
    db
      .insertInto('boards')
      .values({
        org_id: actor.orgId,
        name: input.name,
        name_key: nameKey(input.name),
        has_anonymous: input.hasAnonymous ? 1 : 0,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .returning(['id', 'name', 'has_anonymous'])
      .executeTakeFirstOrThrow(),
  );
  if (cardIds.length > 0) {
    await db
      .insertInto('board_cards')
      .values(
        cardIds.map((cardId) => ({
          org_id: actor.orgId,
          board_id: row.id,
          card_id: cardId,
          created_at: now,
        })),
      )
      .execute();
  }
  return presentBoard(row, cardIds);
}

/** Renames a board, replaces its cards and sets whether it takes anonymous evaluations. */
export async function editBoard(ctx: Ctx, input: BoardInput & { id: number }): Promise<Board> {
  const { db, now, actor } = ctx;
  const board = await findBoard(ctx, input.id, true);
  const cardIds = await requireBoardCards(ctx, input.cardIDs);
  // A board keeps its own name, in any case.
  if (nameKey(input.name) !== board.name_key)
    await ensureNameFree(db, 'boards', { orgId: actor.orgId, name: input.name, exceptId: board.id }, 'name');

  const hasAnonymous = input.hasAnonymous ? 1 : 0;
  await guardName('name', () =>
    db
      .updateTable('boards')
      .set({ name: input.name, name_key: nameKey(input.name), has_anonymous: hasAnonymous, updated_at: now })
      .where('org_id', '=', actor.orgId)
      .where('id', '=', board.id)
      .execute(),
  );
  if (board.has_anonymous === 1 && hasAnonymous === 0) await revokeAnonymousKeys(ctx, board.id);

  await setBoardCards(ctx, board.id, cardIds);
  return presentBoard({ id: board.id, name: input.name, has_anonymous: hasAnonymous }, cardIds);
}

/** Makes exactly `cardIds` the board's cards, keeping the memberships that stay. */
async function setBoardCards(ctx: Ctx, boardId: number, cardIds: number[]) {
  const { db, now, actor } = ctx;
  const current = (
    await db
      .selectFrom('board_cards')
      .select('card_id')
      .where('org_id', '=', actor.orgId)
      .where('board_id', '=', boardId)
      .execute()
  ).map((r) => r.card_id);
  const wanted = new Set(cardIds);
  const leaving = current.filter((id) => !wanted.has(id));
  const joining = cardIds.filter((id) => !current.includes(id));
  if (leaving.length > 0) {
    await db
      .deleteFrom('board_cards')
      .where('org_id', '=', actor.orgId)
      .where('board_id', '=', boardId)
      .where('card_id', 'in', leaving)
      .execute();
  }
  if (joining.length > 0) {
    await db
      .insertInto('board_cards')
      .values(
        joining.map((cardId) => ({
          org_id: actor.orgId,
          board_id: boardId,
          card_id: cardId,
          created_at: now,
        })),
      )
      .execute();
  }
}

/** Soft-deletes a board: it leaves every card, and its anonymous keys stop working. */
export async function deleteBoard(ctx: Ctx, id: number): Promise<{ id: number }> {
  const { db, now, actor } = ctx;
  const board = await findBoard(ctx, id, true);
  await db
    .updateTable('boards')
    .set({ deleted_at: now, updated_at: now })
    .where('org_id', '=', actor.orgId)
    .where('id', '=', board.id)
    .execute();
  await db
    .deleteFrom('board_cards')
    .where('org_id', '=', actor.orgId)
    .where('board_id', '=', board.id)
    .execute();
  await revokeAnonymousKeys(ctx, board.id);
  return { id: board.id };
}

/**
 * Replaces the boards a card is on. Each board it joins must have room (15 cards); the boards are locked
 * in id order on PostgreSQL, so concurrent calls neither overfill a board nor deadlock each other.
 * Answers the card's boards in name order.
 */
export async function syncCardBoards(ctx: Ctx, cardId: number, boardIds: number[]): Promise<number[]> {
  const { db, now, actor } = ctx;
  const card = await findLiveCard(db, ctx.dialect, { orgId: actor.orgId, id: cardId }, 'share');
  const ids = unique(boardIds).sort((a, b) => a - b);
  if (ids.length > 0) {
    const boards = await db
      .selectFrom('boards')
      .select('id')
      .where('org_id', '=', actor.orgId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .$if(ctx.dialect === 'postgres', (qb) => qb.forNoKeyUpdate())
      .execute();
    if (boards.length !== ids.length) throw notFound(messages.boardNotFound);
  }

  const current = (
    await db
      .selectFrom('board_cards')
      .select('board_id')
      .where('org_id', '=', actor.orgId)
      .where('card_id', '=', card.id)
      .execute()
  ).map((r) => r.board_id);
  const joining = ids.filter((id) => !current.includes(id));
  const leaving = current.filter((id) => !ids.includes(id));
  // Every board whose view changes, its revision taken in id order before the first write (decision 0784).
  await changeBoardRevisions(db, [...joining, ...leaving]);

  if (joining.length > 0) {
    const counts = await db
      .selectFrom('board_cards')
      .innerJoin('cards', 'cards.id', 'board_cards.card_id')
      .select((eb) => ['board_cards.board_id', eb.fn.countAll().as('n')])
      .where('board_cards.org_id', '=', actor.orgId)
      .where('board_cards.board_id', 'in', joining)
      .where('cards.deleted_at', 'is', null)
      .groupBy('board_cards.board_id')
      .execute();
    if (counts.some((c) => Number(c.n) >= MAX_CARDS_PER_BOARD))
      throw conflict(messages.boardCardLimit, 'boardIDs');
    await db
      .insertInto('board_cards')
      .values(
        joining.map((boardId) => ({
          org_id: actor.orgId,
          board_id: boardId,
          card_id: card.id,
          created_at: now,
        })),
      )
      .execute();
  }
  if (leaving.length > 0) {
    await db
      .deleteFrom('board_cards')
      .where('org_id', '=', actor.orgId)
      .where('card_id', '=', card.id)
      .where('board_id', 'in', leaving)
      .execute();
  }

  const rows = await db
    .selectFrom('board_cards')
    .innerJoin('boards', 'boards.id', 'board_cards.board_id')
    .select('boards.id')
    .where('board_cards.org_id', '=', actor.orgId)
    .where('board_cards.card_id', '=', card.id)
    .where('boards.deleted_at', 'is', null)
    .orderBy('boards.name_key')
    .orderBy('boards.id')
    .execute();
  return rows.map((r) => r.id);
}
