/** The organisation's settings (docs/decisions/0587): read and changed by its Owner. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../common/api/index.ts';
import { callApi } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';

export const orgSettingsKeys = { all: ['org-settings'] as const, sso: ['sso-settings'] as const };

export const orgSettingsQuery = () =>
  queryOptions({ queryKey: orgSettingsKeys.all, queryFn: () => callApi(api.getOrgSettings, {}) });

export const useOrgSettings = () => useQuery(orgSettingsQuery());

/** Every member's user data carries the zone, so it is read again too. */
export const useSetOrgSettings = () =>
  useCallMutation(api.setOrgSettings, { invalidates: [orgSettingsKeys.all, ['user-data']] });

/** Single sign-on (docs/decisions/0720): the Owner's settings; the secret is never read back. */
export const ssoSettingsQuery = () =>
  queryOptions({ queryKey: orgSettingsKeys.sso, queryFn: () => callApi(api.getSsoSettings, {}) });
export const useSsoSettings = () => useQuery(ssoSettingsQuery());
export const useSetSsoSettings = () =>
  useCallMutation(api.setSsoSettings, { invalidates: [orgSettingsKeys.sso] });
