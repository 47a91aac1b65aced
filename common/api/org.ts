/**
 * The organisation's own settings (docs/decisions/0587): its time zone, in which schedules, reminders and
 * reports read their days and hours. The Owner keeps them on /q/{org}/settings.
 */
import { z } from 'zod';
import { defineCall } from './define.ts';
import { orgSettings } from './entities.ts';
import { timeZone } from './inputs.ts';

export const getOrgSettings = defineCall({
  path: '/api/get-org-settings',
  method: 'POST',
  access: 'owner',
  mutates: false,
  bearer: false,
  whenUnpaid: true,
  request: z.strictObject({}),
  response: orgSettings,
  failMsg: 'Unable to get the organisation settings. Please try again later.',
});

export const setOrgSettings = defineCall({
  path: '/api/set-org-settings',
  method: 'POST',
  access: 'owner',
  mutates: true,
  bearer: false,
  whenUnpaid: true,
  request: z.strictObject({ timeZone }),
  response: orgSettings,
  failMsg: 'Could not save the organisation settings. Please try again.',
});
