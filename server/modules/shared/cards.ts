/**
 * Cards as several modules read them: loading a live card within the organisation, the live cards of a
 * board, and presenting cards with their live items (the cards, boards and anonymous modules).
 */
import type { Card, CardItem, CardItemType } from '../../../common/api/entities.ts';
import type { DialectName } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import { unique } from './names.ts';

export const cardMessages = {
  cardNotFound: 'The card was not found.',
  itemNotFound: 'The card item was not found.',
};

export const itemColumns = [
  'id',
  'card_id',
  'type',
  'content',
  'na',
  'position',
  'is_deleted',
  'photo_on_fail',
  'note_on_fail',
] as const;

export interface ItemRow {
  id: number;
  card_id: number;
  type: CardItemType;
  content: string;
  na: 0 | 1;
  position: number;
  is_deleted: 0 | 1;
  photo_on_fail: 0 | 1;
  note_on_fail: 0 | 1;
}

export function presentItem(row: ItemRow): CardItem {
  return {
    id: row.id,
    cardID: row.card_id,
    type: row.type,
    content: row.content,
    na: row.na === 1,
    order: row.position,
    isDeleted: row.is_deleted === 1,
    photoOnFail: row.photo_on_fail === 1,
    noteOnFail: row.note_on_fail === 1,
  };
}

/** Large id lists are queried in slices, well below either database's limit on bound parameters. */
function slices<T>(values: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
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
  const ids = rows.map((r) => r.id);
  const items = await liveItemsByCard(db, orgId, ids);
  const signOff = new Set<number>();
  for (const slice of slices(unique(ids))) {
    const flagged = await db
      .selectFrom('cards')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', 'in', slice)
      .where('sign_off_required', '=', 1)
      .execute();
    for (const row of flagged) signOff.add(row.id);
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    hasBoard: row.hasBoard,
    cardItems: items.get(row.id) ?? [],
    signOffRequired: signOff.has(row.id),
  }));
}

/**
 * The live cards on a board, in name order (the board is not checked here: callers load it first).
 * `cardId` narrows to that one card, if it is on the board.
 */
export function liveCardsOfBoard(
  db: Db,
  where: { orgId: number; boardId: number; cardId?: number | undefined },
): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom('board_cards')
    .innerJoin('cards', 'cards.id', 'board_cards.card_id')
    .select(['cards.id', 'cards.name'])
    .where('board_cards.org_id', '=', where.orgId)
    .where('board_cards.board_id', '=', where.boardId)
    .where('cards.org_id', '=', where.orgId)
    .where('cards.deleted_at', 'is', null)
    .$if(where.cardId !== undefined, (qb) => qb.where('cards.id', '=', where.cardId!))
    .orderBy('cards.name_key')
    .orderBy('cards.id')
    .execute();
}

export type CardLock = 'none' | 'share' | 'update';

/**
 * A live card of the organisation, or "not found". On PostgreSQL `share` keeps it from being deleted or
 * renamed while the call runs; `update` also serialises changes to its items (their count).
 */
export async function findLiveCard(
  db: Db,
  dialect: DialectName,
  where: { orgId: number } & ({ id: number } | { nameKey: string }),
  lock: CardLock = 'none',
) {
  const postgres = dialect === 'postgres';
  const card = await db
    .selectFrom('cards')
    .select(['id', 'name', 'name_key'])
    .where('org_id', '=', where.orgId)
    .where('deleted_at', 'is', null)
    .$call((qb) => ('id' in where ? qb.where('id', '=', where.id) : qb.where('name_key', '=', where.nameKey)))
    .$if(postgres && lock === 'share', (qb) => qb.forShare())
    .$if(postgres && lock === 'update', (qb) => qb.forNoKeyUpdate())
    .executeTakeFirst();
  if (!card) throw notFound(cardMessages.cardNotFound);
  return card;
}
