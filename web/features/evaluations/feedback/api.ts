/**
 * Feedback as the web app reads and changes it: one queryOptions factory and hook per call; the mutations
 * invalidate feedback and evaluations alike (an evaluation's hasFeedback follows its feedback).
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type Feedback } from '../../../../common/api/index.ts';
import { SEARCH_PAGE_DEFAULT } from '../../../../common/constants.ts';
import { callApi } from '../../../lib/api.ts';
import { useCallMutation } from '../../../lib/mutation.ts';
import { evaluationKeys, type SearchFilter } from '../api.ts';

export const feedbackKeys = {
  all: ['feedback'] as const,
  byEvaluation: (evaluationID: number) => ['feedback', 'evaluation', evaluationID] as const,
  /** `run` counts the searches: each one starts again from a fresh first page. */
  search: (filter: SearchFilter, run: number) => ['feedback', 'search', filter, run] as const,
};

export const evaluationFeedbackQuery = (evaluationID: number) =>
  queryOptions({
    queryKey: feedbackKeys.byEvaluation(evaluationID),
    queryFn: () => callApi(api.getFeedbackByEvaluationId, { evaluationID }),
  });
export const useEvaluationFeedback = (evaluationID: number | null) =>
  useQuery({ ...evaluationFeedbackQuery(evaluationID ?? 0), enabled: evaluationID !== null });

/** The cursor of the page after `page`, or undefined after the last page. */
export function nextFeedbackCursor(page: Feedback[], first: Feedback | undefined, quantity: number) {
  const last = page.at(-1);
  if (!last || page.length < quantity) return undefined;
  return {
    previousDateTime: last.createdTime,
    previousID: last.id,
    maxDateTime: first?.createdTime ?? null,
  };
}

type Cursor = { previousDateTime: string; previousID: number; maxDateTime: string | null } | null;

export const feedbackSearchQuery = (filter: SearchFilter, run = 0, quantity = SEARCH_PAGE_DEFAULT) =>
  infiniteQueryOptions({
    queryKey: feedbackKeys.search(filter, run),
    queryFn: async ({ pageParam }) =>
      (await callApi(api.searchFeedback, { ...filter, ...pageParam, quantity })).feedback,
    initialPageParam: null as Cursor,
    getNextPageParam: (page, pages) => nextFeedbackCursor(page, pages[0]?.[0], quantity),
  });
export const useFeedbackSearch = (search: { filter: SearchFilter; run: number }) =>
  useInfiniteQuery(feedbackSearchQuery(search.filter, search.run));

const changed = [feedbackKeys.all, evaluationKeys.all];
export const useAddFeedback = () => useCallMutation(api.addFeedback, { invalidates: changed });
export const useEditFeedback = () => useCallMutation(api.editFeedback, { invalidates: changed });
export const useDeleteFeedback = () => useCallMutation(api.deleteFeedback, { invalidates: changed });
