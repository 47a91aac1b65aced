/**
 * Security headers on every answer, and the checks every /api request passes before its handler:
 * JSON only (415), no cross-site state changes (403).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { api, type CallDef } from '../../common/api/index.ts';
import { evidenceMessages, UPLOAD_CONTENT_TYPE } from '../../common/evidence.ts';
import { AppError } from '../errors.ts';

/** The calls whose body is a photo rather than JSON (issue 12). */
const UPLOAD_PATHS = new Set(
  (Object.values(api) as CallDef[]).filter((call) => call.upload).map((call) => call.path),
);

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine sets style attributes at run time; scripts stay strict.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Pages reached with an anonymous key in their path never pass it on in a Referer. */
const ANONYMOUS_PAGE = /^\/q\/[^/]+\/boards\//;

function isSameOrigin(request: FastifyRequest, appUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return true;
  const own = `${request.protocol}://${request.host}`;
  return origin === own || origin === new URL(appUrl).origin;
}

export function registerSecurity(app: FastifyInstance, appUrl: string) {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    const pathname = request.url.split('?')[0]!;
    reply.header(
      'Referrer-Policy',
      ANONYMOUS_PAGE.test(pathname) ? 'no-referrer' : 'strict-origin-when-cross-origin',
    );
    if (request.protocol === 'https')
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');

    if (!pathname.startsWith('/api/')) return;
    reply.header('Cache-Control', 'no-store');
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    if (!isSameOrigin(request, appUrl)) {
      throw new AppError('FORBIDDEN', 'Cross-site requests are not allowed.');
    }
    const type = request.headers['content-type'];
    if (UPLOAD_PATHS.has(pathname)) {
      if (!type || !UPLOAD_CONTENT_TYPE.test(type))
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', evidenceMessages.uploadType);
      return;
    }
    if (!type || !/^application\/json\s*(;|$)/i.test(type)) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Requests must be sent as JSON (Content-Type: application/json).',
      );
    }
  });
}
