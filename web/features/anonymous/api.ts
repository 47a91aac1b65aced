/** The anonymous key of a board, re-fetched every 60 s (SPEC §4) for its QR code. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../common/api/index.ts';
import { ANONYMOUS_KEY_REFRESH_MS } from '../../../common/constants.ts';
import { callApi } from '../../lib/api.ts';

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
