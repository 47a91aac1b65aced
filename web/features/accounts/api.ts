/**
 * Accounts, sign-in and users as the web app calls them: the users list's queryOptions factory and hook,
 * the mutations (user changes invalidate the list), and the fetchers of the calls a page makes once, in
 * an effect or a timer, rather than as a user's action.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type RequestOf } from '../../../common/api/index.ts';
import { callApi, newIdempotencyKey } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';

export const accountKeys = {
  users: ['users'] as const,
  ssoLoginOptions: (orgName: string) => ['sso-login-options', orgName] as const,
};

export const usersQuery = () =>
  queryOptions({ queryKey: accountKeys.users, queryFn: () => callApi(api.getUsers, {}) });
export const useUsers = () => useQuery(usersQuery());

export const useAddUser = () => useCallMutation(api.addUser, { invalidates: [accountKeys.users] });
export const useEditUser = () => useCallMutation(api.editUser, { invalidates: [accountKeys.users] });
export const useDeleteUser = () => useCallMutation(api.deleteUser, { invalidates: [accountKeys.users] });

/** Single sign-on (docs/decisions/0720): what the organisation's sign-in page offers. */
export const ssoLoginOptionsQuery = (orgName: string) =>
  queryOptions({
    queryKey: accountKeys.ssoLoginOptions(orgName),
    queryFn: () => callApi(api.getSsoLoginOptions, { orgName }),
  });
export const useSsoLoginOptions = (orgName: string | undefined) =>
  useQuery({ ...ssoLoginOptionsQuery(orgName ?? ''), enabled: Boolean(orgName) });
/** Each start is a new sign-in with its own state: never replayed. */
export const startSso = (orgName: string) => callApi(api.startSso, { orgName });

export const useSignup = () => useCallMutation(api.signup);
export const useResetPassword = () => useCallMutation(api.resetPassword);
export const useRequestPasswordReset = () => useCallMutation(api.requestPasswordReset);
export const useSelectSubscription = () => useCallMutation(api.selectSubscription);

/** Sign-in is not retried with a key: a second attempt is a new attempt, counted by the server. */
export const login = (body: RequestOf<typeof api.login>) => callApi(api.login, body);
export const resendVerification = (username: string) =>
  callApi(api.resendVerification, { username }, { idempotencyKey: newIdempotencyKey() });
export const verifyEmail = (token: string) =>
  callApi(api.verifyEmail, { token }, { idempotencyKey: newIdempotencyKey() });
export const createApp = (checkoutID: string) =>
  callApi(api.createApp, { checkoutID }, { idempotencyKey: newIdempotencyKey() });
export const refreshToken = () => callApi(api.refreshToken, {});
export const logout = () => callApi(api.logout, {});
