/**
 * Corrective actions as the web app reads and changes them (issue 12): one queryOptions factory and hook per
 * call; the mutations invalidate every actions key (the lists, the open one, the board's marks).
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type Action, type ActionsFilter, type RequestOf } from '../../../common/api/index.ts';
import { EVALUATIONS_REFRESH_MS, SEARCH_PAGE_DEFAULT } from '../../../common/constants.ts';
import { callApi } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';

/** The Actions tab's filter: what it sends besides the keyset cursor and the page size. */
export type ActionsListFilter = Omit<ActionsFilter, 'previousDueDate' | 'previousID' | 'quantity'>;

export const actionKeys = {
  all: ['actions'] as const,
  list: (filter: ActionsListFilter) => ['actions', 'list', filter] as const,
  one: (actionID: number) => ['actions', 'one', actionID] as const,
  assignees: ['actions', 'assignees'] as const,
  board: (boardID: number) => ['actions', 'board', boardID] as const,
};

/** The cursor of the page after `page`, or undefined after the last one. */
export function nextActionsCursor(page: Action[], quantity: number) {
  const last = page.at(-1);
  if (!last || page.length < quantity) return undefined;
  return { previousDueDate: last.dueDate, previousID: last.id };
}

type Cursor = { previousDueDate: string; previousID: number } | null;

export const actionsListQuery = (filter: ActionsListFilter, quantity = SEARCH_PAGE_DEFAULT) =>
  infiniteQueryOptions({
    queryKey: actionKeys.list(filter),
    queryFn: async ({ pageParam }) =>
      (await callApi(api.getActions, { ...filter, ...pageParam, quantity })).actions,
    initialPageParam: null as Cursor,
    getNextPageParam: (page) => nextActionsCursor(page, quantity),
  });
export const useActionsList = (filter: ActionsListFilter) => useInfiniteQuery(actionsListQuery(filter));

export const actionQuery = (actionID: number) =>
  queryOptions({
    queryKey: actionKeys.one(actionID),
    queryFn: () => callApi(api.getAction, { actionID }),
  });
export const useAction = (actionID: number | null) =>
  useQuery({ ...actionQuery(actionID ?? 0), enabled: actionID !== null });

export const assigneesQuery = () =>
  queryOptions({
    queryKey: actionKeys.assignees,
    queryFn: () => callApi(api.getActionAssignees, {}),
    staleTime: 60_000,
  });
export const useAssignees = (enabled = true) => useQuery({ ...assigneesQuery(), enabled });

export const boardActionCountsQuery = (boardID: number) =>
  queryOptions({
    queryKey: actionKeys.board(boardID),
    queryFn: () => callApi(api.getBoardActionCounts, { boardID }),
    refetchInterval: EVALUATIONS_REFRESH_MS,
  });
export const useBoardActionCounts = (boardID: number, enabled: boolean) =>
  useQuery({ ...boardActionCountsQuery(boardID), enabled });

export const useRaiseAction = () => useCallMutation(api.addAction, { invalidates: [actionKeys.all] });
export const useEditAction = () => useCallMutation(api.editAction, { invalidates: [actionKeys.all] });
export const useCompleteAction = () => useCallMutation(api.completeAction, { invalidates: [actionKeys.all] });
export const useCancelAction = () => useCallMutation(api.cancelAction, { invalidates: [actionKeys.all] });

/** The Actions tab's Excel download: a file, saved by the caller, not cached. */
export const downloadActionsExcel = (body: RequestOf<typeof api.getActionsExcel>) =>
  callApi(api.getActionsExcel, body);
