/**
 * Cards as the web app reads and changes them: one queryOptions factory and hook per call (SPEC §4
 * timers), and the mutations. A change to a card's name or boards makes every board and card query stale;
 * a change to its items, the card itself and the card list (item counts).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../common/api/index.ts';
import {
  BOARDS_AND_CARDS_REFRESH_MS,
  DELETED_CARDS_REFRESH_MS,
  DELETED_CARDS_WINDOW_DAYS,
} from '../../../common/constants.ts';
import { callApi } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';
import { boardAndCardKeys, keys } from '../../lib/queryKeys.ts';

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

export const useAddCard = () => useCallMutation(api.addCard, { invalidates: boardAndCardKeys });
export const useEditCard = () => useCallMutation(api.editCard, { invalidates: boardAndCardKeys });
export const useDeleteCard = () => useCallMutation(api.deleteCard, { invalidates: boardAndCardKeys });
export const useSyncCardBoards = () => useCallMutation(api.syncCardBoards, { invalidates: boardAndCardKeys });

const itemsChanged = (cardID: number) => ({ invalidates: [keys.card(cardID), keys.cards] });
export const useReplaceCard = (cardID: number) => useCallMutation(api.replaceCard, itemsChanged(cardID));
export const useAddCardItem = (cardID: number) => useCallMutation(api.addCardItem, itemsChanged(cardID));
export const useEditCardItem = (cardID: number) => useCallMutation(api.editCardItem, itemsChanged(cardID));
export const useDeleteCardItem = (cardID: number) =>
  useCallMutation(api.deleteCardItem, itemsChanged(cardID));
