/**
 * API tokens (docs/decisions/0584): named secrets an administrator makes so another system can call this
 * API with `Authorization: Bearer …`, read-only or read-write, never beyond its maker's role.
 */
import { z } from 'zod';
import { shortNameSchema } from '../validation.ts';
import { defineCall } from './define.ts';
import { API_TOKEN_ACCESS, apiToken, dateTime, id } from './entities.ts';

export const getApiTokens = defineCall({
  path: '/api/get-api-tokens',
  method: 'POST',
  access: 'admin',
  mutates: false,
  bearer: false,
  request: z.strictObject({}),
  response: z.object({ tokens: z.array(apiToken) }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const addApiToken = defineCall({
  path: '/api/add-api-token',
  method: 'POST',
  access: 'admin',
  mutates: true,
  bearer: false,
  // The secret is shown once: a retry with the same key is refused rather than answered with it again.
  secretAnswer: true,
  request: z.strictObject({
    name: shortNameSchema,
    access: z.enum(API_TOKEN_ACCESS, 'Choose read only or read and write.'),
    expiresAt: dateTime.nullable(),
  }),
  response: z.object({ token: apiToken, secret: z.string() }),
  failMsg: 'Could not add the API token. Please try again.',
});

export const revokeApiToken = defineCall({
  path: '/api/revoke-api-token',
  method: 'POST',
  access: 'admin',
  mutates: true,
  bearer: false,
  request: z.strictObject({ id }),
  response: z.object({ id }),
  failMsg: 'Could not revoke the API token. Please try again.',
});
