import { z } from 'zod';
import { CARD_ITEM_CONTENT_MAX } from '../constants.ts';
import { itemNameSchema } from '../validation.ts';
import { defineCall } from './define.ts';
import { CARD_ITEM_TYPES, card, cardItem, dateTime, id, usage } from './entities.ts';

const orgName = z.string().max(200).optional();
const itemFields = {
  type: z.enum(CARD_ITEM_TYPES),
  content: z.string().max(CARD_ITEM_CONTENT_MAX),
  na: z.boolean(),
  order: z.number().int().min(0).max(10_000),
  /** Our additions (issue 12); absent keeps an existing item's setting (a new item's: off). */
  photoOnFail: z.boolean().optional(),
  noteOnFail: z.boolean().optional(),
};

export const getCardsUsed = defineCall({
  path: '/api/get-cards-used',
  method: 'POST',
  access: 'admin',
  mutates: false,
  request: z.strictObject({ orgName }),
  response: usage,
  failMsg: 'Unable to get cards used. Please try again.',
});

export const addCard = defineCall({
  path: '/api/add-card',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ name: itemNameSchema }),
  response: z.object({ card }),
  failMsg: 'Unable to add the name. Please try again.',
});

export const getCards = defineCall({
  path: '/api/get-cards',
  method: 'POST',
  access: 'admin',
  mutates: false,
  request: z.strictObject({}),
  response: z.object({ cards: z.array(card) }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const getCardsByBoardId = defineCall({
  path: '/api/get-cards-by-board-id',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({ boardID: id }),
  response: z.object({ cards: z.array(card) }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const getDeletedCards = defineCall({
  path: '/api/get-deleted-cards',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({ startTime: dateTime }),
  response: z.object({ cards: z.array(card) }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const getCard = defineCall({
  path: '/api/get-card',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({ cardID: id }),
  response: z.object({ card }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const editCard = defineCall({
  path: '/api/edit-card',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ oldName: z.string().trim().min(1).max(100), newName: itemNameSchema }),
  response: z.object({ card }),
  failMsg: 'Unable to edit the name. Please try again.',
});

export const replaceCard = defineCall({
  path: '/api/replace-card',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({
    card: z.strictObject({
      id,
      name: itemNameSchema,
      /** Our addition (issue 13); absent keeps the card's setting. */
      signOffRequired: z.boolean().optional(),
      cardItems: z
        .array(z.strictObject({ id: id.optional(), ...itemFields, isDeleted: z.boolean().optional() }))
        .max(1000),
    }),
  }),
  response: z.object({ card }),
  failMsg: 'Unable to replace the card. Please try again.',
});

export const deleteCard = defineCall({
  path: '/api/delete-card',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ id }),
  response: z.object({ name: z.string() }),
  failMsg: 'Unable to delete the name. Please try again.',
});

export const addCardItem = defineCall({
  path: '/api/add-card-item',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ cardID: id, ...itemFields }),
  response: z.object({ cardItem }),
  failMsg: 'Unable to add the card item. Please try again.',
});

export const editCardItem = defineCall({
  path: '/api/edit-card-item',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ id, cardID: id.optional(), ...itemFields, isDeleted: z.boolean().optional() }),
  response: z.object({ cardItem }),
  failMsg: 'Unable to edit the card item. Please try again.',
});

export const deleteCardItem = defineCall({
  path: '/api/delete-card-item',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ id }),
  response: z.object({ id }),
  failMsg: 'Unable to delete the card item. Please try again.',
});
