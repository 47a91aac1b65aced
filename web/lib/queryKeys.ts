/**
 * Query keys that several features read or make stale: boards and cards change each other (a card's boards,
 * a board's cards), so their keys live here, beside the features that own the calls.
 */
export const keys = {
  boards: ['boards'] as const,
  boardsUsed: ['boards-used'] as const,
  cards: ['cards'] as const,
  cardsUsed: ['cards-used'] as const,
  deletedCards: ['deleted-cards'] as const,
  card: (cardID: number) => ['card', cardID] as const,
  boardCards: (boardID: number) => ['board-cards', boardID] as const,
};

/** Every query a board or card change can make stale. */
export const boardAndCardKeys = [
  keys.boards,
  keys.boardsUsed,
  keys.cards,
  keys.cardsUsed,
  keys.deletedCards,
  ['card'],
  ['board-cards'],
];
