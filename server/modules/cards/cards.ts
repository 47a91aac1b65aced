/**
 * Cards (checklists): reading, creating, renaming, replacing whole and deleting. Cards are soft-deleted so
 * history can still name them. Every query names the organisation; another organisation's card is answered
 * as not found. Items one by one are in items.ts; the plan's limits in ../shared/plan.ts.
 */
import type { Card, Usage } from '../../../common/api/entities.ts';
import {
  CARDS_PER_DEPARTMENT,
  DELETED_CARDS_WINDOW_DAYS,
  MAX_ITEMS_PER_CARD,
} from '../../../common/constants.ts';
import { nameKey } from '../../../common/validation.ts';
import type { CallContext, UserActor } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { sanitizeItemContent } from '../../lib/sanitize.ts';
import { findLiveBoard } from '../shared/boards.ts';
import {
  cardMessages,
  findLiveCard,
  liveCardsOfBoard,
  presentCards,
  type CardLock,
  type CardRow,
} from '../shared/cards.ts';
import { ensureNameFree, guardName } from '../shared/names.ts';
import { checkOwnOrganisation, departmentsOf, liveCount, planMessages } from '../shared/plan.ts';
import { evidenceOptions, itemMessages, newItemRow, type ItemInput } from './items.ts';

type Ctx = CallContext<UserActor>;

const DAY_MS = 24 * 60 * 60_000;

export const messages = {
  ...cardMessages,
  ...planMessages,
  ...itemMessages,
  itemRepeated: 'A card item can appear only once in a card.',
};

// ---------------------------------------------------------------------------------------------------------
// Presenting

/** The organisation's cards with whether each is on at least one live board, in name order. */
function cardsQuery(db: Db, orgId: number) {
  return db
    .selectFrom('cards')
    .select((eb) => [
      'cards.id',
      'cards.name',
      eb
        .exists(
          eb
            .selectFrom('board_cards')
            .innerJoin('boards', 'boards.id', 'board_cards.board_id')
            .select('board_cards.board_id')
            .where('board_cards.org_id', '=', orgId)
            .whereRef('board_cards.card_id', '=', 'cards.id')
            .where('boards.deleted_at', 'is', null),
        )
        .as('has_board'),
    ])
    .where('cards.org_id', '=', orgId)
    .orderBy('cards.name_key')
    .orderBy('cards.id');
}

const toCardRow = (row: { id: number; name: string; has_board: unknown }): CardRow => ({
  id: row.id,
  name: row.name,
  // PostgreSQL answers exists() with a boolean, SQLite with 0/1.
  hasBoard: Boolean(Number(row.has_board)),
});

async function presentCard(db: Db, orgId: number, cardId: number): Promise<Card> {
  const row = await cardsQuery(db, orgId).where('cards.id', '=', cardId).executeTakeFirstOrThrow();
  const [card] = await presentCards(db, orgId, [toCardRow(row)]);
  return card!;
}

// ---------------------------------------------------------------------------------------------------------
// Loading within the organisation

function findCard(ctx: Ctx, where: { id: number } | { nameKey: string }, lock: CardLock = 'none') {
  return findLiveCard(ctx.db, ctx.dialect, { orgId: ctx.actor.orgId, ...where }, lock);
}

// ---------------------------------------------------------------------------------------------------------
// Reading

export async function cardsUsed(ctx: Ctx, orgName: string | undefined): Promise<Usage> {
  checkOwnOrganisation(ctx.actor, orgName);
  const [departments, used] = await Promise.all([
    departmentsOf(ctx),
    liveCount(ctx.db, 'cards', ctx.actor.orgId),
  ]);
  return { used, total: departments * CARDS_PER_DEPARTMENT };
}

export async function listCards(ctx: Ctx): Promise<Card[]> {
  const rows = await cardsQuery(ctx.db, ctx.actor.orgId).where('cards.deleted_at', 'is', null).execute();
  return presentCards(ctx.db, ctx.actor.orgId, rows.map(toCardRow));
}

export async function getCard(ctx: Ctx, cardId: number): Promise<Card> {
  await findCard(ctx, { id: cardId });
  return presentCard(ctx.db, ctx.actor.orgId, cardId);
}

/**
 * Cards deleted since `startTime`, but never more than 31 days back, with the items they had, so history
 * can still name them.
 */
export async function deletedCards(ctx: Ctx, startTime: string): Promise<Card[]> {
  const since = Math.max(Date.parse(startTime), ctx.now - DELETED_CARDS_WINDOW_DAYS * DAY_MS);
  const rows = await ctx.db
    .selectFrom('cards')
    .select(['id', 'name'])
    .where('org_id', '=', ctx.actor.orgId)
    .where('deleted_at', '>=', since)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
  return presentCards(
    ctx.db,
    ctx.actor.orgId,
    rows.map((r) => ({ id: r.id, name: r.name, hasBoard: false })),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Changing cards

export async function addCard(ctx: Ctx, name: string): Promise<Card> {
  const { db, now, actor } = ctx;
  const departments = await departmentsOf(ctx, true);
  const total = departments * CARDS_PER_DEPARTMENT;
  if ((await liveCount(db, 'cards', actor.orgId)) >= total) throw conflict(messages.cardPlanLimit(total));
  await ensureNameFree(db, 'cards', { orgId: actor.orgId, name }, 'name');
  const row = await guardName('name', () =>
    db
      .insertInto('cards')
      .values({
        org_id: actor.orgId,
        name,
        name_key: nameKey(name),
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return { id: row.id, name, hasBoard: false, cardItems: [], signOffRequired: false };
}

async function rename(
  ctx: Ctx,
  card: { id: number; name: string; name_key: string },
  name: string,
  field: string,
) {
  // The same name is no change at all; a change of case alone is a rename of the card to itself.
  if (name === card.name) return;
  if (nameKey(name) !== card.name_key)
    await ensureNameFree(ctx.db, 'cards', { orgId: ctx.actor.orgId, name, exceptId: card.id }, field);
  await guardName(field, () =>
    ctx.db
      .updateTable('cards')
      .set({ name, name_key: nameKey(name), updated_at: ctx.now })
      .where('org_id', '=', ctx.actor.orgId)
      .where('id', '=', card.id)
      .execute(),
  );
}

/** Renames the live card called `oldName` (case-insensitively). */
export async function editCard(ctx: Ctx, oldName: string, newName: string): Promise<Card> {
  const card = await findCard(ctx, { nameKey: nameKey(oldName.trim()) }, 'update');
  await rename(ctx, card, newName, 'newName');
  return presentCard(ctx.db, ctx.actor.orgId, card.id);
}

/** Soft-deletes a card and takes it off every board; its items stay for history. */
export async function deleteCard(ctx: Ctx, id: number): Promise<{ name: string }> {
  const { db, now, actor } = ctx;
  const card = await findCard(ctx, { id }, 'update');
  await db
    .updateTable('cards')
    .set({ deleted_at: now, updated_at: now })
    .where('org_id', '=', actor.orgId)
    .where('id', '=', card.id)
    .execute();
  await db
    .deleteFrom('board_cards')
    .where('org_id', '=', actor.orgId)
    .where('card_id', '=', card.id)
    .execute();
  return { name: card.name };
}

export interface ReplaceCardInput {
  id: number;
  name: string;
  signOffRequired?: boolean | undefined;
  cardItems: (ItemInput & { id?: number | undefined; isDeleted?: boolean | undefined })[];
}

/**
 * Saves a whole card at once: its name, items with an id updated (or soft-deleted with isDeleted), items
 * without one added. Everything is checked before anything is written; items the request does not
 * mention are left as they are.
 */
export async function replaceCard(ctx: Ctx, input: ReplaceCardInput): Promise<Card> {
  const { db, now, actor } = ctx;
  const card = await findCard(ctx, { id: input.id }, 'update');

  const existing = new Map(
    (
      await db
        .selectFrom('card_items')
        .select(['id', 'is_deleted'])
        .where('org_id', '=', actor.orgId)
        .where('card_id', '=', card.id)
        .execute()
    ).map((row) => [row.id, row.is_deleted === 1]),
  );
  const mentioned = new Set<number>();
  const updates: (ItemInput & { id: number; isDeleted: boolean })[] = [];
  const inserts: ItemInput[] = [];
  for (const item of input.cardItems) {
    if (item.id === undefined) {
      // A new item deleted before it was ever saved is nothing to save.
      if (!item.isDeleted) inserts.push(item);
      continue;
    }
    if (mentioned.has(item.id)) throw badRequest(messages.itemRepeated, 'cardItems');
    mentioned.add(item.id);
    const wasDeleted = existing.get(item.id);
    if (wasDeleted === undefined) throw notFound(messages.itemNotFound);
    if (wasDeleted) {
      // Deleting an item again changes nothing; editing a deleted one is editing nothing.
      if (item.isDeleted) continue;
      throw notFound(messages.itemNotFound);
    }
    updates.push({ ...item, id: item.id, isDeleted: item.isDeleted === true });
  }
  const untouchedLive = [...existing].filter(([id, deleted]) => !deleted && !mentioned.has(id)).length;
  const live = untouchedLive + updates.filter((u) => !u.isDeleted).length + inserts.length;
  if (live > MAX_ITEMS_PER_CARD) throw conflict(messages.itemLimit);

  await rename(ctx, card, input.name, 'name');
  if (input.signOffRequired !== undefined) {
    await db
      .updateTable('cards')
      .set({ sign_off_required: input.signOffRequired ? 1 : 0, updated_at: now })
      .where('org_id', '=', actor.orgId)
      .where('id', '=', card.id)
      .execute();
  }
  for (const item of updates) {
    await db
      .updateTable('card_items')
      .set({
        type: item.type,
        content: sanitizeItemContent(item.content),
        na: item.na ? 1 : 0,
        position: item.order,
        ...evidenceOptions(item),
        ...(item.isDeleted ? { is_deleted: 1 as const } : {}),
        updated_at: now,
      })
      .where('org_id', '=', actor.orgId)
      .where('card_id', '=', card.id)
      .where('id', '=', item.id)
      .execute();
  }
  if (inserts.length > 0) {
    await db
      .insertInto('card_items')
      .values(inserts.map((item) => newItemRow(ctx, card.id, item)))
      .execute();
  }
  if (updates.length > 0 || inserts.length > 0) {
    await db
      .updateTable('cards')
      .set({ updated_at: now })
      .where('org_id', '=', actor.orgId)
      .where('id', '=', card.id)
      .execute();
  }
  return presentCard(db, actor.orgId, card.id);
}

/** get-cards-by-board-id: a live board's live cards in name order, each with its live items. */
export async function cardsOnBoard(ctx: Ctx, boardId: number): Promise<Card[]> {
  const board = await findLiveBoard(ctx.db, { orgId: ctx.actor.orgId, boardId });
  const rows = await liveCardsOfBoard(ctx.db, { orgId: ctx.actor.orgId, boardId: board.id });
  return presentCards(
    ctx.db,
    ctx.actor.orgId,
    rows.map((r) => ({ id: r.id, name: r.name, hasBoard: true })),
  );
}
