/**
 * POST /api/billing/stripe-webhook: Stripe's events, verified by their signature over the raw body. Not a
 * call of the app's contract (Stripe, not the browser, calls it), so it is registered on its own.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../context.ts';
import { handleStripeEvent } from './service.ts';
import { verifyWebhookSignature } from './stripe.ts';

export const STRIPE_WEBHOOK_PATH = '/api/billing/stripe-webhook';

export async function registerStripeWebhook(app: FastifyInstance, services: Services) {
  const { billing } = services.config;
  if (billing.provider !== 'stripe') return;
  await app.register(async (scope) => {
    // The signature covers the exact bytes Stripe sent.
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      const payload = request.body as string;
      const signature = request.headers['stripe-signature'];
      if (
        !verifyWebhookSignature(
          payload,
          typeof signature === 'string' ? signature : undefined,
          billing.webhookSecret,
          services.clock.now(),
        )
      ) {
        return reply.code(400).send({ errMsg: 'The signature is not valid.' });
      }
      let event;
      try {
        event = JSON.parse(payload);
      } catch {
        return reply.code(400).send({ errMsg: 'The request body is not valid JSON.' });
      }
      await handleStripeEvent(services.db, event, services.clock.now());
      return { received: true };
    });
  });
}
