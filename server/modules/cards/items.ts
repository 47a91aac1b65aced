/**
 * A card's items one by one (add, edit, delete card item). Items soft-delete through is_deleted and keep
 * their position; a card holds at most MAX_ITEMS_PER_CARD live items. Content is sanitised on the way in.
 */
import type { CardItem, CardItemType } from '../../../common/api/entities.ts';
import { MAX_ITEMS_PER_CARD } from '../../../common/constants.ts';
import type { CallContext, UserActor } from '../../context.ts';
import { conflict, notFound } from '../../errors.ts';
import { sanitizeItemContent } from '../../lib/sanitize.ts';
import { cardMessages, findLiveCard, itemColumns, presentItem, type ItemRow } from '../shared/cards.ts';

type Ctx = CallContext<UserActor>;

export const itemMessages = {
  itemLimit: `A card can only have ${MAX_ITEMS_PER_CARD} items.`,
};

export interface ItemInput {
  type: CardItemType;
  content: string;
  na: boolean;
  order: number;
  photoOnFail?: boolean | undefined;
  noteOnFail?: boolean | undefined;
}

/** The evidence options as written: absent keeps what an existing item has (issue 12). */
export function evidenceOptions(item: Pick<ItemInput, 'photoOnFail' | 'noteOnFail'>) {
  return {
    ...(item.photoOnFail !== undefined
      ? { photo_on_fail: item.photoOnFail ? (1 as const) : (0 as const) }
      : {}),
    ...(item.noteOnFail !== undefined ? { note_on_fail: item.noteOnFail ? (1 as const) : (0 as const) } : {}),
  };
}

export function newItemRow(ctx: Ctx, cardId: number, item: ItemInput) {
  return {
    org_id: ctx.actor.orgId,
    card_id: cardId,
    type: item.type,
    content: sanitizeItemContent(item.content),
    na: item.na ? (1 as const) : (0 as const),
    position: item.order,
    is_deleted: 0 as const,
    ...evidenceOptions(item),
    created_at: ctx.now,
    updated_at: ctx.now,
  };
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
  if (!item) throw notFound(cardMessages.itemNotFound);
  return item;
}

export async function addCardItem(ctx: Ctx, input: ItemInput & { cardID: number }): Promise<CardItem> {
  const card = await findLiveCard(
    ctx.db,
    ctx.dialect,
    { orgId: ctx.actor.orgId, id: input.cardID },
    'update',
  );
  if ((await liveItemCount(ctx, card.id)) >= MAX_ITEMS_PER_CARD) throw conflict(itemMessages.itemLimit);
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
      ...evidenceOptions(input),
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
