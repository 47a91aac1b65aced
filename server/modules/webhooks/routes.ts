import { defineHandlers } from '../../http/handlers.ts';
import * as webhooks from './service.ts';

export const webhookHandlers = defineHandlers({
  getWebhooks: async (_input, ctx) => ({ webhooks: await webhooks.listWebhooks(ctx) }),
  addWebhook: (input, ctx) => webhooks.addWebhook(ctx, input),
  editWebhook: (input, ctx) => webhooks.editWebhook(ctx, input),
  deleteWebhook: (input, ctx) => webhooks.deleteWebhook(ctx, input.id),
  getWebhookDeliveries: async (input, ctx) => ({ deliveries: await webhooks.listDeliveries(ctx, input) }),
  resendWebhookDelivery: (input, ctx) => webhooks.resendDelivery(ctx, input.id),
});
