/**
 * Webhooks (docs/decisions/0585): an administrator registers HTTPS endpoints for events; deliveries are
 * signed, queued in the database, retried with backoff for 24 hours, logged and can be sent again.
 */
import { z } from 'zod';
import { defineCall } from './define.ts';
import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX,
  id,
  webhook,
  webhookDelivery,
} from './entities.ts';

const fields = {
  url: z
    .string()
    .trim()
    .min(1, 'Enter the endpoint URL.')
    .max(WEBHOOK_URL_MAX, `The URL can be at most ${WEBHOOK_URL_MAX} characters long.`),
  description: z
    .string()
    .trim()
    .max(
      WEBHOOK_DESCRIPTION_MAX,
      `The description can be at most ${WEBHOOK_DESCRIPTION_MAX} characters long.`,
    ),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, 'Unknown event.'))
    .min(1, 'Choose at least one event.')
    .max(WEBHOOK_EVENTS.length),
};

export const getWebhooks = defineCall({
  path: '/api/get-webhooks',
  method: 'POST',
  access: 'admin',
  mutates: false,
  request: z.strictObject({}),
  response: z.object({ webhooks: z.array(webhook) }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const addWebhook = defineCall({
  path: '/api/add-webhook',
  method: 'POST',
  access: 'admin',
  mutates: true,
  bearer: false,
  // The signing secret is shown once, like an API token's.
  secretAnswer: true,
  request: z.strictObject(fields),
  response: z.object({ webhook, secret: z.string() }),
  failMsg: 'Could not add the webhook. Please try again.',
});

export const editWebhook = defineCall({
  path: '/api/edit-webhook',
  method: 'POST',
  access: 'admin',
  mutates: true,
  bearer: false,
  request: z.strictObject({ id, ...fields, enabled: z.boolean() }),
  response: z.object({ webhook }),
  failMsg: 'Could not edit the webhook. Please try again.',
});

export const deleteWebhook = defineCall({
  path: '/api/delete-webhook',
  method: 'POST',
  access: 'admin',
  mutates: true,
  bearer: false,
  request: z.strictObject({ id }),
  response: z.object({ id }),
  failMsg: 'Could not delete the webhook. Please try again.',
});

export const getWebhookDeliveries = defineCall({
  path: '/api/get-webhook-deliveries',
  method: 'POST',
  access: 'admin',
  mutates: false,
  // Newest first, 50 at a time; the next page starts below the last id seen.
  request: z.strictObject({ webhookID: id, beforeID: id.nullable().optional() }),
  response: z.object({ deliveries: z.array(webhookDelivery) }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const resendWebhookDelivery = defineCall({
  path: '/api/resend-webhook-delivery',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ id }),
  response: z.object({ delivery: webhookDelivery }),
  failMsg: 'Could not send the delivery again. Please try again.',
});
