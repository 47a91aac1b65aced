/** The anonymous key of a board, re-fetched every 60 s (SPEC §4) for its QR code. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../common/api/index.ts';
import { ANONYMOUS_KEY_REFRESH_MS } from '../../../common/constants.ts';
import { callApi } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';

export const anonymousKeyQuery = (boardID: number) =>
  queryOptions({
    queryKey: ['anonymous-key', boardID],
    queryFn: () => callApi(api.getAnonymousEvaluationKey, { boardID }),
    refetchInterval: ANONYMOUS_KEY_REFRESH_MS,
    refetchIntervalInBackground: true,
    // A failed refresh must not leave an old key on screen.
    retry: false,
  });

export function useAnonymousKey(boardID: number, enabled = true) {
  return useQuery({ ...anonymousKeyQuery(boardID), enabled });
}

/** What every -anon call carries: the organisation and board of the path, and the key (SPEC §6). */
export interface AnonymousAccess {
  orgName: string;
  boardID: number;
  anonKey: string;
}

const anonKeys = {
  board: (a: AnonymousAccess) => ['anon-board', a.orgName, a.boardID, a.anonKey] as const,
  cards: (a: AnonymousAccess) => ['anon-cards', a.orgName, a.boardID, a.anonKey] as const,
  card: (a: AnonymousAccess, cardID: number) =>
    ['anon-card', a.orgName, a.boardID, a.anonKey, cardID] as const,
};

/** The board's name, and whether the key still works (our addition: get-board-anon). */
export const anonymousBoardQuery = (access: AnonymousAccess) =>
  queryOptions({
    queryKey: anonKeys.board(access),
    queryFn: () => callApi(api.getBoardAnon, access),
    staleTime: 60_000,
  });
export const useAnonymousBoard = (access: AnonymousAccess, enabled = true) =>
  useQuery({ ...anonymousBoardQuery(access), enabled });

/** The board's cards by name; answered only while the key may start an evaluation. */
export const anonymousCardsQuery = (access: AnonymousAccess) =>
  queryOptions({
    queryKey: anonKeys.cards(access),
    queryFn: () => callApi(api.getCardsByBoardIdAnon, access),
    staleTime: 60_000,
  });
export const useAnonymousCards = (access: AnonymousAccess, enabled = true) =>
  useQuery({ ...anonymousCardsQuery(access), enabled });

export const anonymousCardQuery = (access: AnonymousAccess, cardID: number) =>
  queryOptions({
    queryKey: anonKeys.card(access, cardID),
    queryFn: () => callApi(api.getCardAnon, { ...access, cardID }),
    staleTime: Infinity,
  });
export const useAnonymousCard = (access: AnonymousAccess, cardID: number) =>
  useQuery(anonymousCardQuery(access, cardID));

/** The visitor's evaluation: nothing is cached between these calls, so they invalidate nothing. */
export const useStartAnonymousEvaluation = () => useCallMutation(api.addEvaluationAnon);
export const useCompleteAnonymousEvaluation = () => useCallMutation(api.addResultsAnon);
export const useCancelAnonymousEvaluation = () => useCallMutation(api.deleteEvaluationAnon);
export const useAddAnonymousFeedback = () => useCallMutation(api.addFeedbackAnon);
