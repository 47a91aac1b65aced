/**
 * Registers every call of the contract, each through the same steps (Outline's order): authenticate,
 * validate, authorise, then run the handler, for state-changing calls inside a transaction replayed by
 * Idempotency-Key (idempotency.ts), and present the answer through the contract's response schema.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { api, type CallDef, type CallName } from '../../common/api/index.ts';
import { roleMayCall } from '../../common/roles.ts';
import { resolveAnonymousActor, type AnonymousRequestFields } from '../auth/anonymous.ts';
import { bearerToken, resolveApiToken } from '../auth/apiTokens.ts';
import { takeWindowSlot } from '../auth/rateLimit.ts';
import { resolveSession, sessionToken } from '../auth/sessions.ts';
import type { Actor, CallContext, Services } from '../context.ts';
import type { Db } from '../db/index.ts';
import { AppError, badRequest, forbidden, tooManyRequests, unauthenticated } from '../errors.ts';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { JsonText } from '../lib/jsonText.ts';
import { PHOTO_BYTES_MAX, evidenceMessages } from '../../common/evidence.ts';
import { SIGNATURE_BYTES_MAX, signOffMessages } from '../../common/signOff.ts';
import { processPhoto, type ProcessedPhoto } from '../storage/photos.ts';
import { processSignature, type ProcessedSignature } from '../storage/signatures.ts';
import { ExportSlots, releasingStream } from './exportSlots.ts';
import type { FileAnswer, InlineFileAnswer } from './handlers.ts';
import { runOnce } from './idempotency.ts';
import {
  ANONYMOUS_WINDOW_MS,
  RATE_LIMITED_MESSAGE,
  anonymousBucket,
  secondsLeftInWindow,
} from './rateLimit.ts';

export const UNPAID_MESSAGE = 'Your account is unpaid.';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
export const SIGN_IN_MESSAGE = 'Please sign in to continue.';

// Each handler is typed by its own call (defineHandlers); here they are only passed what was validated.
type AnyHandler = (input: never, ctx: never) => Promise<unknown>;

function validationError(error: { issues: { message: string; path: PropertyKey[] }[] }): AppError {
  const issue = error.issues[0]!;
  // The innermost named field: card.name is reported as 'name', as the form knows it.
  const field = issue.path.filter((p) => typeof p === 'string').at(-1);
  return badRequest(issue.message, typeof field === 'string' ? field : undefined);
}

async function authenticate(
  services: Services,
  call: CallDef,
  request: FastifyRequest,
  body: unknown,
  now: number,
): Promise<Actor | null> {
  if (call.access === 'anonymous') {
    return resolveAnonymousActor(services.db, body as AnonymousRequestFields);
  }
  if (call.access === 'public') return resolveSession(services.db, sessionToken(request), now);
  // Another system's API token (docs/decisions/0584): never with a cookie's session, never mixed.
  const bearer = bearerToken(request);
  if (bearer !== undefined) {
    const actor = await resolveApiToken(services.db, bearer, call, now);
    if (!roleMayCall(actor.role, call.access)) throw forbidden('Not authorized.');
    return actor;
  }
  const token = sessionToken(request);
  const user = await resolveSession(services.db, token, now);
  if (!user) throw unauthenticated(token ? SESSION_EXPIRED_MESSAGE : SIGN_IN_MESSAGE);
  if (!roleMayCall(user.role, call.access)) throw forbidden('Not authorized.');
  return user;
}

/** A photo answered to be shown in the page: nothing in it may run, and it is not sniffed as anything else. */
const INLINE_FILE_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

function sendFile(reply: FastifyReply, answer: FileAnswer | InlineFileAnswer) {
  const { filename, contentType, body, inline } = answer.file;
  reply
    .header('Content-Type', contentType)
    .header('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename="${filename}"`)
    .header('Access-Control-Expose-Headers', 'Content-Disposition');
  if (inline) {
    reply
      .header('Content-Security-Policy', INLINE_FILE_POLICY)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      // The caller's own copy for a few minutes (a board view opens the same thumbnails again and again).
      .header('Cache-Control', 'private, max-age=300');
  }
  return reply.send(body);
}

/** An upload's body: image data as sent (the content-type parser gives a Buffer, anything else is refused). */
function uploadBody(request: FastifyRequest): Buffer {
  const body = request.body;
  if (!Buffer.isBuffer(body)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', evidenceMessages.uploadType);
  return body;
}

export function registerCalls(
  app: FastifyInstance,
  services: Services,
  handlers: Partial<Record<CallName, AnyHandler>>,
) {
  const checkJsonText = services.config.env !== 'production';
  const exportSlots = new ExportSlots(services.db, services.clock, services.config.exportsPerProcess);
  for (const [name, handler] of Object.entries(handlers) as [CallName, AnyHandler][]) {
    const call = api[name] as CallDef;
    app.route({
      method: call.method,
      url: call.path,
      config: {
        failMsg: call.failMsg,
        call: name,
        ...(call.upload === 'photo' ? { tooLargeMsg: evidenceMessages.tooLarge } : {}),
        ...(call.upload === 'signature' ? { tooLargeMsg: signOffMessages.tooLarge } : {}),
      },
      ...(call.upload === 'photo' ? { bodyLimit: PHOTO_BYTES_MAX } : {}),
      ...(call.upload === 'signature' ? { bodyLimit: SIGNATURE_BYTES_MAX } : {}),
      handler: async (request, reply) => {
        const now = services.clock.now();
        // An upload's fields are in its query string, its body is the photo.
        const raw = call.method === 'GET' || call.upload ? (request.query ?? {}) : (request.body ?? {});

        // Anonymous calls need their key fields to authenticate: check their shape first.
        let input: unknown;
        if (call.access === 'anonymous' || call.perAddressLimit) {
          const limit = services.config.anonymousCallsPerMinute;
          const bucket = anonymousBucket(request.ip);
          if (!(await takeWindowSlot(services.db, bucket, ANONYMOUS_WINDOW_MS, now, limit)))
            throw tooManyRequests(RATE_LIMITED_MESSAGE, secondsLeftInWindow(now, ANONYMOUS_WINDOW_MS));
          const parsed = call.request.safeParse(raw);
          if (!parsed.success) throw validationError(parsed.error);
          input = parsed.data;
        }
        // The parsed fields (an upload's query-string ids are numbers by now).
        const actor = await authenticate(services, call, request, input ?? raw, now);
        // Public calls (sign-in, sign-out, refresh, reset…) never depend on the subscription (DECISIONS.md).
        if (actor && !actor.paid && call.access !== 'public' && !call.whenUnpaid)
          throw new AppError('PAYMENT_REQUIRED', UNPAID_MESSAGE);
        if (input === undefined) {
          const parsed = call.request.safeParse(raw);
          if (!parsed.success) throw validationError(parsed.error);
          input = parsed.data;
        }

        // Decoded and re-encoded before any transaction opens: the image work holds no database lock.
        let upload: ProcessedPhoto | undefined;
        let signature: ProcessedSignature | undefined;
        let idempotencyRaw = raw;
        if (call.upload) {
          const body = uploadBody(request);
          if (call.upload === 'signature') signature = await processSignature(body);
          else upload = await processPhoto(body);
          const digest = createHash('sha256').update(body).digest('base64url');
          idempotencyRaw = { fields: raw, body: digest };
        }

        const afterCommit: (() => Promise<void> | void)[] = [];
        const context = (db: Db): CallContext => ({
          ...services,
          db,
          actor,
          now,
          request,
          reply,
          log: request.log,
          afterCommit: (task) => afterCommit.push(task),
          upload,
          signature,
        });
        const present = (answer: unknown, { exact = false } = {}) => {
          const checked = call.response.safeParse(answer);
          if (!checked.success || (exact && !isDeepStrictEqual(checked.data, answer))) {
            request.log.error(
              { call: name, issues: checked.success ? 'fields beyond the contract' : checked.error.issues },
              'answer does not match the contract',
            );
            throw new AppError('INTERNAL', call.failMsg);
          }
          return checked.data;
        };
        const runAfterCommit = async () => {
          for (const task of afterCommit) {
            try {
              await task();
            } catch (error) {
              request.log.error({ err: error, call: name }, 'after-commit task failed');
            }
          }
        };

        if (call.document) {
          // One evaluation's report (issue 13): bounded by the evaluation, streamed as it is made.
          const answer = (await handler(input as never, context(services.db) as never)) as FileAnswer;
          return sendFile(reply, answer);
        }

        if (call.file && !call.image) {
          // Exports are heavy: one per organisation and a few per process at a time (decision 0621).
          const release = await exportSlots.claim(actor!.orgId, request.log);
          let answer: FileAnswer;
          try {
            answer = (await handler(input as never, context(services.db) as never)) as FileAnswer;
          } catch (error) {
            await release();
            throw error;
          }
          return sendFile(reply, {
            file: { ...answer.file, body: releasingStream(answer.file.body, release) },
          });
        }

        if (!call.mutates || call.atomic === false) {
          const answer = await handler(input as never, context(services.db) as never);
          // A photo (issue 12) is small and read from the storage: no export slot.
          if (call.image) return sendFile(reply, answer as InlineFileAnswer);
          if (answer instanceof JsonText) {
            // Written as JSON by the handler (decision 0775), as UTF-8 bytes (0779): sent as they are; checked
            // against the contract outside production, where no field beyond the contract's may be in it either.
            if (checkJsonText) present(answer.parse(), { exact: true });
            await runAfterCommit();
            return reply.type('application/json; charset=utf-8').send(answer.bytes);
          }
          const presented = present(answer);
          await runAfterCommit();
          return presented;
        }

        const outcome = await runOnce(
          services.db,
          { call, request, reply, actor, raw: idempotencyRaw, now },
          async (trx) => JSON.stringify(present(await handler(input as never, context(trx) as never))),
        );
        if ('replayed' in outcome) return outcome.replayed;
        const { body } = outcome;
        await runAfterCommit();
        return reply.type('application/json').send(body);
      },
    });
  }
}
