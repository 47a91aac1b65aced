import { z } from 'zod';
import { DEPARTMENTS_MAX, DEPARTMENTS_MIN } from '../constants.ts';
import { defineCall } from './define.ts';

export const selectSubscription = defineCall({
  path: '/api/select-subscription',
  method: 'POST',
  access: 'owner',
  mutates: true,
  whenUnpaid: true,
  request: z.strictObject({
    numDepartments: z
      .number()
      .int('Number of departments must be a whole number.')
      .min(
        DEPARTMENTS_MIN,
        `Number of departments must be between ${DEPARTMENTS_MIN} and ${DEPARTMENTS_MAX}.`,
      )
      .max(
        DEPARTMENTS_MAX,
        `Number of departments must be between ${DEPARTMENTS_MIN} and ${DEPARTMENTS_MAX}.`,
      ),
  }),
  response: z.object({ url: z.string() }),
  failMsg: 'Unable to get response from server. Please try again later.',
});

export const createApp = defineCall({
  path: '/api/create-app',
  method: 'POST',
  access: 'owner',
  mutates: true,
  whenUnpaid: true,
  request: z.strictObject({ checkoutID: z.string().min(1).max(200) }),
  response: z.object({ homeURL: z.string() }),
  failMsg: 'Unable to get response from server. Please try again later.',
});
