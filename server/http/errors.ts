/** The one place where anything thrown becomes an HTTP answer: `{errMsg, errField?}`, never a stack or SQL. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError } from '../errors.ts';

const GENERIC = 'Something went wrong. Please try again later.';
/** SPEC §8's text for a server that does not answer; a call's own message comes first. */
export const UNAVAILABLE_MESSAGE = 'Unable to get response from server. Please try again later.';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The call's SPEC §8 message, answered when the handler fails unexpectedly. */
    failMsg?: string;
    /** What a body over the route's limit is told (the photo uploads say their limit). */
    tooLargeMsg?: string;
  }
}

function fromFastifyError(error: FastifyError, tooLargeMsg?: string): AppError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', tooLargeMsg ?? 'The request is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Requests must be sent as JSON (Content-Type: application/json).',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('BAD_REQUEST', 'The request body is empty.');
    default:
      if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
        return new AppError('BAD_REQUEST', 'The request body is not valid JSON.');
      }
      return null;
  }
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const known =
      error instanceof AppError
        ? error
        : fromFastifyError(error as FastifyError, request.routeOptions.config?.tooLargeMsg);
    if (known) {
      if (known.status >= 500) request.log.error({ err: error }, 'request failed');
      const body: { errMsg: string; errField?: string } = { errMsg: known.errMsg };
      if (known.errField) body.errField = known.errField;
      if (known.retryAfterSeconds !== undefined)
        reply.header('Retry-After', String(Math.max(1, Math.ceil(known.retryAfterSeconds))));
      return reply.code(known.status).header('Cache-Control', 'no-store').send(body);
    }
    const callMsg = request.routeOptions.config?.failMsg;
    if (isDatabaseUnavailable(error)) {
      // 503, so the client's retry rule (SPEC §7) applies while the database is down or busy.
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('Cache-Control', 'no-store')
        .header('Retry-After', '5')
        .send({ errMsg: callMsg ?? UNAVAILABLE_MESSAGE });
    }
    request.log.error({ err: error }, 'request failed');
    const failMsg = callMsg ?? GENERIC;
    return reply.code(500).header('Cache-Control', 'no-store').send({ errMsg: failMsg });
  });
}
