/**
 * GET /api/sso/callback: where the identity provider sends the browser back (decision 0720). Not a call of
 * the contract (the provider's redirect, not the web app, calls it, and it answers a redirect, not JSON),
 * so it is registered on its own, like the Stripe webhook. It always redirects to a page of the app.
 */
import type { FastifyInstance } from 'fastify';
import { SSO_CALLBACK_PATH } from '../../../common/sso.ts';
import { secureCookies } from '../../auth/sessions.ts';
import type { Services } from '../../context.ts';
import { SSO_BROWSER_COOKIE, complete } from './service.ts';

export function registerSsoCallback(app: FastifyInstance, services: Services) {
  app.get(SSO_CALLBACK_PATH, async (request, reply) => {
    let target: string;
    try {
      target = await complete(services, request, reply, services.clock.now());
    } catch (error) {
      request.log.error({ err: error }, 'sso: callback failed');
      target = '/login?sso=failed';
    }
    reply.clearCookie(SSO_BROWSER_COOKIE, {
      path: SSO_CALLBACK_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies(services.config, request),
    });
    return reply.header('Cache-Control', 'no-store').redirect(target, 303);
  });
}
