/** The current user's data (SPEC §3), shared by the menu, the tabs and the organisation's pages. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../common/api/index.ts';
import { callApi } from './api.ts';
import { useLoggedIn } from './session.ts';

export const userDataQuery = () =>
  queryOptions({
    queryKey: ['user-data'],
    queryFn: () => callApi(api.getUserData, {}),
    staleTime: 60_000,
    retry: false,
  });

export function useUserData() {
  const loggedIn = useLoggedIn();
  return useQuery({ ...userDataQuery(), enabled: loggedIn });
}
