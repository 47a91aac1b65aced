import { defineHandlers } from '../../http/handlers.ts';
import { JsonText } from '../../lib/jsonText.ts';
import * as cards from './cards.ts';
import * as items from './items.ts';

export const cardHandlers = defineHandlers({
  getCardsUsed: (input, ctx) => cards.cardsUsed(ctx, input.orgName),
  // Every card with its items: ~1.1 MB for 500 cards of 10, asked for by every administrator's boards panel
  // again every 2 minutes, so written as JSON bytes once (decisions 0775, 0779).
  getCards: async (_input, ctx) => JsonText.of({ cards: await cards.listCards(ctx) }),
  getCardsByBoardId: async (input, ctx) => ({ cards: await cards.cardsOnBoard(ctx, input.boardID) }),
  getDeletedCards: async (input, ctx) => ({ cards: await cards.deletedCards(ctx, input.startTime) }),
  getCard: async (input, ctx) => ({ card: await cards.getCard(ctx, input.cardID) }),
  addCard: async (input, ctx) => ({ card: await cards.addCard(ctx, input.name) }),
  editCard: async (input, ctx) => ({ card: await cards.editCard(ctx, input.oldName, input.newName) }),
  replaceCard: async (input, ctx) => ({ card: await cards.replaceCard(ctx, input.card) }),
  deleteCard: (input, ctx) => cards.deleteCard(ctx, input.id),
  addCardItem: async (input, ctx) => ({ cardItem: await items.addCardItem(ctx, input) }),
  editCardItem: async (input, ctx) => ({ cardItem: await items.editCardItem(ctx, input) }),
  deleteCardItem: (input, ctx) => items.deleteCardItem(ctx, input.id),
});
