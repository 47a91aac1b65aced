/**
 * Cards (checklists) and their items, and the plan's usage (docs/product-decisions.md Billing). Cards are soft-deleted
 * so history can still name them; items soft-delete through is_deleted and keep their position. Every
 * query names the organisation; another organisation's card or item is answered as not found.
 */
import type { Card, CardItem, CardItemType, Usage } from '../../../common/api/entities.ts';
import {
  CARDS_PER_DEPARTMENT,
  DELETED_CARDS_WINDOW_DAYS,
  MAX_ITEMS_PER_CARD,
} from '../../../common/constants.ts';
import { nameKey, messages as rules } from '../../../common/validation.ts';
import type { CallContext, UserActor } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { sanitizeItemContent } from '../../lib/sanitize.ts';

type Ctx = CallContext<UserActor>;

const DAY_MS = 24 * 60 * 60_000;

function planLimit(total: number, noun: 'board' | 'card'): string {
  return `Your plan allows ${total} ${noun}${total === 1 ? '' : 's'}. Choose a larger plan to add more.`;
}

export const messages = {
  cardNotFound: 'The card was not found.',
  itemNotFound: 'The card item was not found.',
  organisationNotFound: 'The organisation was not found.',
  itemLimit: `A card can only have ${MAX_ITEMS_PER_CARD} items.`,
  itemRepeated: 'A card item can appear only once in a card.',
  boardPlanLimit: (total: number) => planLimit(total, 'board'),
  cardPlanLimit: (total: number) => planLimit(total, 'card'),
};

export interface ItemInput {
  type: CardItemType;
  content: string;
  na: boolean;
  order: number;
}

// ---------------------------------------------------------------------------------------------------------
// Shared helpers (also used by the boards module)

export const unique = (ids: readonly number[]) => [...new Set(ids)];

/** Large id lists are queried in slices, well below either database's limit on bound parameters. */
function slices<T>(values: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

/** usage calls take an optional orgName that can only narrow: another organisation's name is not found. */
export function checkOwnOrganisation(actor: UserActor, orgName: string | undefined) {
  const given = orgName?.trim();
  if (given && nameKey(given) !== nameKey(actor.orgName)) throw notFound(messages.organisationNotFound);
}

/**
 * The organisation's departments. `lock` takes its row on PostgreSQL, so two creations in the same
 * organisation cannot both take the plan's last place (SQLite serialises writers anyway). A no-key lock
 * leaves every other table's references to the organisation free.
 */
export async function departmentsOf(ctx: Ctx, lock = false): Promise<number> {
  const org = await ctx.db
    .selectFrom('organizations')
    .select('num_departments')
    .where('id', '=', ctx.actor.orgId)
    .$if(lock && ctx.dialect === 'postgres', (qb) => qb.forNoKeyUpdate())
    .executeTakeFirstOrThrow();
  return org.num_departments;
}

async function liveCardCount(db: Db, orgId: number): Promise<number> {
  const row = await db
    .selectFrom('cards')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Answers a unique-index refusal (two creations racing for one name) as the duplicate-name message. */
export async function guardName<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(rules.nameExists, field);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Presenting

const itemColumns = ['id', 'card_id', 'type', 'content', 'na', 'position', 'is_deleted'] as const;

interface ItemRow {
  id: number;
  card_id: number;
  type: CardItemType;
  content: string;
  na: 0 | 1;
  position: number;
  is_deleted: 0 | 1;
}

function presentItem(row: ItemRow): CardItem {
  return {
    id: row.id,
    cardID: row.card_id,
    type: row.type,
    content: row.content,
    na: row.na === 1,
    order: row.position,
    isDeleted: row.is_deleted === 1,
  };
}

/** The live items of many cards in one query per slice, each card's in `order`. */
async function liveItemsByCard(db: Db, orgId: number, cardIds: number[]): Promise<Map<number, CardItem[]>> {
  const byCard = new Map<number, CardItem[]>();
  for (const slice of slices(unique(cardIds))) {
    const rows = await db
      .selectFrom('card_items')
      .select(itemColumns)
      .where('org_id', '=', orgId)
      .where('card_id', 'in', slice)
      .where('is_deleted', '=', 0)
      .orderBy('card_id')
      .orderBy('position')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const list = byCard.get(row.card_id) ?? [];
      list.push(presentItem(row));
      byCard.set(row.card_id, list);
    }
  }
  return byCard;
}

export interface CardRow {
  id: number;
  name: string;
  hasBoard: boolean;
}

/** Cards as the wire shows them, with their live items fetched for all of them at once. */
export async function presentCards(db: Db, orgId: number, rows: CardRow[]): Promise<Card[]> {
  if (rows.length === 0) return [];
  const items = await liveItemsByCard(
    db,
    orgId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    hasBoard: row.hasBoard,
    cardItems: items.get(row.id) ?? [],
  }));
}

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

type CardLock = 'none' | 'share' | 'update';

/**
 * A live card of the caller's organisation, or "not found". On PostgreSQL `share` keeps it from being
 * deleted or renamed while the call runs; `update` also serialises changes to its items (their count).
 */
async function findLiveCard(ctx: Ctx, where: { id: number } | { nameKey: string }, lock: CardLock = 'none') {
  const postgres = ctx.dialect === 'postgres';
  const card = await ctx.db
    .selectFrom('cards')
    .select(['id', 'name', 'name_key'])
    .where('org_id', '=', ctx.actor.orgId)
    .where('deleted_at', 'is', null)
    .$call((qb) => ('id' in where ? qb.where('id', '=', where.id) : qb.where('name_key', '=', where.nameKey)))
    .$if(postgres && lock === 'share', (qb) => qb.forShare())
    .$if(postgres && lock === 'update', (qb) => qb.forNoKeyUpdate())
    .executeTakeFirst();
  if (!card) throw notFound(messages.cardNotFound);
  return card;
}

export async function requireLiveCard(ctx: Ctx, id: number) {
  return findLiveCard(ctx, { id }, 'share');
}

async function ensureNameFree(ctx: Ctx, name: string, field: string, exceptId?: number) {
  const taken = await ctx.db
    .selectFrom('cards')
    .select('id')
    .where('org_id', '=', ctx.actor.orgId)
    .where('name_key', '=', nameKey(name))
    .where('deleted_at', 'is', null)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (taken) throw conflict(rules.nameExists, field);
}

async function liveItemCount(ctx: Ctx, cardId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('card_items')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', ctx.actor.orgId)
    .where('card_id', '=', cardId)
    .where('is_deleted', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A live item of a live card of the caller's organisation (and of `cardId` when given), or "not found". */
async function findLiveItem(ctx: Ctx, id: number, cardId?: number): Promise<ItemRow> {
  const item = await ctx.db
    .selectFrom('card_items')
    .innerJoin('cards', 'cards.id', 'card_items.card_id')
    .select(itemColumns.map((c) => `card_items.${c}` as const))
    .where('card_items.org_id', '=', ctx.actor.orgId)
    .where('cards.org_id', '=', ctx.actor.orgId)
    .where('card_items.id', '=', id)
    .where('card_items.is_deleted', '=', 0)
    .where('cards.deleted_at', 'is', null)
    .$if(cardId !== undefined, (qb) => qb.where('card_items.card_id', '=', cardId!))
    .executeTakeFirst();
  if (!item) throw notFound(messages.itemNotFound);
  return item;
}

// ---------------------------------------------------------------------------------------------------------
// Reading

export async function cardsUsed(ctx: Ctx, orgName: string | undefined): Promise<Usage> {
  checkOwnOrganisation(ctx.actor, orgName);
  const [departments, used] = await Promise.all([departmentsOf(ctx), liveCardCount(ctx.db, ctx.actor.orgId)]);
  return { used, total: departments * CARDS_PER_DEPARTMENT };
}

export async function listCards(ctx: Ctx): Promise<Card[]> {
  const rows = await cardsQuery(ctx.db, ctx.actor.orgId).where('cards.deleted_at', 'is', null).execute();
  return presentCards(ctx.db, ctx.actor.orgId, rows.map(toCardRow));
}

export async function getCard(ctx: Ctx, cardId: number): Promise<Card> {
  await findLiveCard(ctx, { id: cardId });
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
  if ((await liveCardCount(db, actor.orgId)) >= total) throw conflict(messages.cardPlanLimit(total));
  await ensureNameFree(ctx, name, 'name');
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
  return { id: row.id, name, hasBoard: false, cardItems: [] };
}

async function rename(
  ctx: Ctx,
  card: { id: number; name: string; name_key: string },
  name: string,
  field: string,
) {
  // The same name is no change at all; a change of case alone is a rename of the card to itself.
  if (name === card.name) return;
  if (nameKey(name) !== card.name_key) await ensureNameFree(ctx, name, field, card.id);
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
  const card = await findLiveCard(ctx, { nameKey: nameKey(oldName.trim()) }, 'update');
  await rename(ctx, card, newName, 'newName');
  return presentCard(ctx.db, ctx.actor.orgId, card.id);
}

/** Soft-deletes a card and takes it off every board; its items stay for history. */
export async function deleteCard(ctx: Ctx, id: number): Promise<{ name: string }> {
  const { db, now, actor } = ctx;
  const card = await findLiveCard(ctx, { id }, 'update');
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
  cardItems: (ItemInput & { id?: number | undefined; isDeleted?: boolean | undefined })[];
}

/**
 * Saves a whole card at once: its name, items with an id updated (or soft-deleted with isDeleted), items
 * without one added. Everything is checked before anything is written; items the request does not
 * mention are left as they are.
 */
export async function replaceCard(ctx: Ctx, input: ReplaceCardInput): Promise<Card> {
  const { db, now, actor } = ctx;
  const card = await findLiveCard(ctx, { id: input.id }, 'update');

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
  for (const item of updates) {
    await db
      .updateTable('card_items')
      .set({
        type: item.type,
        content: sanitizeItemContent(item.content),
        na: item.na ? 1 : 0,
        position: item.order,
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

// ---------------------------------------------------------------------------------------------------------
// Changing items

function newItemRow(ctx: Ctx, cardId: number, item: ItemInput) {
  return {
    org_id: ctx.actor.orgId,
    card_id: cardId,
    type: item.type,
    content: sanitizeItemContent(item.content),
    na: item.na ? (1 as const) : (0 as const),
    position: item.order,
    is_deleted: 0 as const,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
}

export async function addCardItem(ctx: Ctx, input: ItemInput & { cardID: number }): Promise<CardItem> {
  const card = await findLiveCard(ctx, { id: input.cardID }, 'update');
  if ((await liveItemCount(ctx, card.id)) >= MAX_ITEMS_PER_CARD) throw conflict(messages.itemLimit);
  const row = await ctx.db
    .insertInto('card_items')
    .values(newItemRow(ctx, card.id, input))
    .returning(itemColumns)
    .executeTakeFirstOrThrow();
  return presentItem(row);
}

/** Edits a live item; `isDeleted: true` also soft-deletes it. `cardID`, when given, must be its card. */
export async function editCardItem(
  ctx: Ctx,
  input: ItemInput & { id: number; cardID?: number | undefined; isDeleted?: boolean | undefined },
): Promise<CardItem> {
  const item = await findLiveItem(ctx, input.id, input.cardID);
  const row = await ctx.db
    .updateTable('card_items')
    .set({
      type: input.type,
      content: sanitizeItemContent(input.content),
      na: input.na ? 1 : 0,
      position: input.order,
      ...(input.isDeleted ? { is_deleted: 1 as const } : {}),
      updated_at: ctx.now,
    })
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', item.id)
    .returning(itemColumns)
    .executeTakeFirstOrThrow();
  return presentItem(row);
}

export async function deleteCardItem(ctx: Ctx, id: number): Promise<{ id: number }> {
  const item = await findLiveItem(ctx, id);
  await ctx.db
    .updateTable('card_items')
    .set({ is_deleted: 1, updated_at: ctx.now })
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', item.id)
    .execute();
  return { id: item.id };
}
