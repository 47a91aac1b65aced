/**
 * Evaluations as the web app reads and changes them: one queryOptions factory and hook per call, and the
 * mutations, which invalidate the same keys (SPEC §4: board results refresh every 30 s).
 */
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, type Evaluation, type RequestOf, type SearchRequest } from '../../../common/api/index.ts';
import { EVALUATIONS_REFRESH_MS, SEARCH_PAGE_DEFAULT } from '../../../common/constants.ts';
import { callApi } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';
import { rememberedTimeZone } from '../../shared/timeZone.ts';
import { evaluationsStart } from './calendar.ts';

/** A search's filter: what the Evaluations and Feedback tabs send besides the keyset cursor. */
export type SearchFilter = Pick<
  SearchRequest,
  'isEditing' | 'startDateTime' | 'endDateTime' | 'boardName' | 'cardName' | 'userName'
>;

export const evaluationKeys = {
  all: ['evaluations'] as const,
  board: (boardID: number, startDateTime: string, timeZone: string) =>
    ['evaluations', 'board', boardID, startDateTime, timeZone] as const,
  one: (evalID: number) => ['evaluations', 'one', evalID] as const,
  /** `run` counts the searches: each one starts again from a fresh first page. */
  search: (filter: SearchFilter, run: number) => ['evaluations', 'search', filter, run] as const,
};

/** Feedback lives in its own module, but evaluation changes reach it (deleting one deletes its feedback). */
const feedbackRoot = ['feedback'] as const;

/**
 * The board's squares by the browser's calendar days (the server groups them by the same zone's days); the
 * zone as this device last found it while its clock reads the same (docs/decisions/0762).
 */
export const boardEvaluationsQuery = (
  boardID: number,
  startDateTime: string,
  timeZone = rememberedTimeZone(),
) =>
  queryOptions({
    queryKey: evaluationKeys.board(boardID, startDateTime, timeZone),
    queryFn: () => callApi(api.getEvaluations, { boardID, startDateTime, timeZone }),
    refetchInterval: EVALUATIONS_REFRESH_MS,
    // Fetched a moment before the results mount (usePrefetchBoardEvaluations): not fetched again then.
    // A change made here invalidates the key, which refetches whatever the staleTime.
    staleTime: 10_000,
  });

/**
 * Asks for the board's results as soon as the board is known, beside its cards, rather than after them:
 * one round trip less before the board view draws (issue 15, Lighthouse).
 */
export function usePrefetchBoardEvaluations(boardID: number) {
  const client = useQueryClient();
  useEffect(() => {
    void client.prefetchQuery(boardEvaluationsQuery(boardID, evaluationsStart(new Date()).toISOString()));
  }, [client, boardID]);
}
export const useBoardEvaluations = (boardID: number | null, startDateTime: string) =>
  useQuery({
    ...boardEvaluationsQuery(boardID ?? 0, startDateTime),
    enabled: boardID !== null,
    // Across midnight the key changes; the board keeps showing the last answer until the new one comes.
    placeholderData: (previous) => previous,
  });

export const evaluationQuery = (evalID: number) =>
  queryOptions({
    queryKey: evaluationKeys.one(evalID),
    queryFn: () => callApi(api.getEvaluation, { evalID }),
  });
export const useEvaluation = (evalID: number | null, enabled = true) =>
  useQuery({ ...evaluationQuery(evalID ?? 0), enabled: enabled && evalID !== null });

/** The cursor of the page after `page`, or undefined after the last page. */
export function nextEvaluationCursor(page: Evaluation[], first: Evaluation | undefined, quantity: number) {
  const last = page.at(-1);
  if (!last || page.length < quantity) return undefined;
  return {
    previousDateTime: last.completedTime,
    previousID: last.ID,
    // The set the first page showed: later pages and the export leave out what arrived since.
    maxDateTime: first?.completedTime ?? null,
  };
}

type Cursor = { previousDateTime: string; previousID: number; maxDateTime: string | null } | null;

export const evaluationSearchQuery = (filter: SearchFilter, run = 0, quantity = SEARCH_PAGE_DEFAULT) =>
  infiniteQueryOptions({
    queryKey: evaluationKeys.search(filter, run),
    queryFn: async ({ pageParam }) =>
      (await callApi(api.searchEvaluations, { ...filter, ...pageParam, quantity })).evaluations,
    initialPageParam: null as Cursor,
    getNextPageParam: (page, pages) => nextEvaluationCursor(page, pages[0]?.[0], quantity),
  });
export const useEvaluationSearch = (search: { filter: SearchFilter; run: number }) =>
  useInfiniteQuery(evaluationSearchQuery(search.filter, search.run));

export const useStartEvaluation = () => useCallMutation(api.addEvaluation);
export const useCompleteEvaluation = () =>
  useCallMutation(api.addResults, { invalidates: [evaluationKeys.all] });
/** Not the deleted evaluation's own query: refetched, it would only answer that it is gone. */
export const useDeleteEvaluation = () =>
  useCallMutation(api.deleteEvaluation, {
    invalidates: [['evaluations', 'board'], ['evaluations', 'search'], feedbackRoot],
  });

/** The Evaluations and Feedback tabs' Excel downloads: a file, saved by the caller, not cached. */
export const downloadExcel = (
  call: typeof api.getExcel | typeof api.getFeedbackExcel,
  body: RequestOf<typeof api.getExcel>,
) => callApi(call, body);

/** Issue 13: an evaluation's report share links (administrators). */
export const reportLinkKeys = { of: (evalID: number) => ['report-links', evalID] as const };
export const reportLinksQuery = (evalID: number) =>
  queryOptions({
    queryKey: reportLinkKeys.of(evalID),
    queryFn: () => callApi(api.getReportLinks, { evalID }),
  });
export const useReportLinks = (evalID: number, enabled: boolean) =>
  useQuery({ ...reportLinksQuery(evalID), enabled });
export const useAddReportLink = (evalID: number) =>
  useCallMutation(api.addReportLink, { invalidates: [reportLinkKeys.of(evalID)] });
export const useRevokeReportLink = (evalID: number) =>
  useCallMutation(api.revokeReportLink, { invalidates: [reportLinkKeys.of(evalID)] });
