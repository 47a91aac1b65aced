/** Boards and cards as the web app reads them: one queryOptions factory and hook per call (SPEC §4 timers). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../common/api/index.ts';
import {
  BOARDS_AND_CARDS_REFRESH_MS,
  DELETED_CARDS_REFRESH_MS,
  DELETED_CARDS_WINDOW_DAYS,
} from '../../../common/constants.ts';
import { callApi } from '../../lib/api.ts';

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

export const boardsQuery = () =>
  queryOptions({
    queryKey: keys.boards,
    queryFn: () => callApi(api.getBoards, {}),
    refetchInterval: BOARDS_AND_CARDS_REFRESH_MS,
  });
export const useBoards = () => useQuery(boardsQuery());

export const boardsUsedQuery = () =>
  queryOptions({
    queryKey: keys.boardsUsed,
    queryFn: () => callApi(api.getBoardsUsed, {}),
    refetchInterval: BOARDS_AND_CARDS_REFRESH_MS,
  });
export const useBoardsUsed = () => useQuery(boardsUsedQuery());

export const cardsQuery = () =>
  queryOptions({
    queryKey: keys.cards,
    queryFn: () => callApi(api.getCards, {}),
    refetchInterval: BOARDS_AND_CARDS_REFRESH_MS,
  });
export const useCards = (enabled = true) => useQuery({ ...cardsQuery(), enabled });

export const cardsUsedQuery = () =>
  queryOptions({
    queryKey: keys.cardsUsed,
    queryFn: () => callApi(api.getCardsUsed, {}),
    refetchInterval: BOARDS_AND_CARDS_REFRESH_MS,
  });
export const useCardsUsed = (enabled = true) => useQuery({ ...cardsUsedQuery(), enabled });

export const deletedCardsQuery = () =>
  queryOptions({
    queryKey: keys.deletedCards,
    queryFn: () =>
      callApi(api.getDeletedCards, {
        startTime: new Date(Date.now() - DELETED_CARDS_WINDOW_DAYS * 24 * 60 * 60_000).toISOString(),
      }),
    refetchInterval: DELETED_CARDS_REFRESH_MS,
  });
export const useDeletedCards = (enabled = true) => useQuery({ ...deletedCardsQuery(), enabled });

export const cardQuery = (cardID: number) =>
  queryOptions({ queryKey: keys.card(cardID), queryFn: () => callApi(api.getCard, { cardID }) });
export const useCard = (cardID: number | null) =>
  useQuery({ ...cardQuery(cardID ?? 0), enabled: cardID !== null });

export const boardCardsQuery = (boardID: number) =>
  queryOptions({
    queryKey: keys.boardCards(boardID),
    queryFn: () => callApi(api.getCardsByBoardId, { boardID }),
    refetchInterval: BOARDS_AND_CARDS_REFRESH_MS,
  });
export const useBoardCards = (boardID: number | null) =>
  useQuery({ ...boardCardsQuery(boardID ?? 0), enabled: boardID !== null });
