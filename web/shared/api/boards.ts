/**
 * Boards as the web app reads and changes them: one queryOptions factory and hook per call (SPEC §4
 * timers); the mutations invalidate every board and card query, since boards and cards change each other.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../common/api/index.ts';
import { BOARDS_AND_CARDS_REFRESH_MS } from '../../../common/constants.ts';
import { callApi } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';
import { boardAndCardKeys, keys } from '../../lib/queryKeys.ts';

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

export const boardCardsQuery = (boardID: number) =>
  queryOptions({
    queryKey: keys.boardCards(boardID),
    queryFn: () => callApi(api.getCardsByBoardId, { boardID }),
    refetchInterval: BOARDS_AND_CARDS_REFRESH_MS,
  });
export const useBoardCards = (boardID: number | null) =>
  useQuery({ ...boardCardsQuery(boardID ?? 0), enabled: boardID !== null });

export const useAddBoard = () => useCallMutation(api.addBoard, { invalidates: boardAndCardKeys });
export const useEditBoard = () => useCallMutation(api.editBoard, { invalidates: boardAndCardKeys });
export const useDeleteBoard = () => useCallMutation(api.deleteBoard, { invalidates: boardAndCardKeys });
