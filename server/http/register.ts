/**
 * Registers every call of the contract, each through the same steps (Outline's order): authenticate,
 * validate, authorise, then run the handler, inside a transaction with idempotency for state-changing
 * calls, and present the answer through the contract's response schema.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { api, type CallDef, type CallName } from '../../common/api/index.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_TTL_MS } from '../../common/constants.ts';
import { roleMayCall } from '../../common/roles.ts';
import { resolveAnonymousActor, type AnonymousRequestFields } from '../auth/anonymous.ts';
import { resolveSession, sessionToken } from '../auth/sessions.ts';
import type { Actor, CallContext, Services, UserActor } from '../context.ts';
import type { Db } from '../db/index.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { AppError, badRequest, forbidden, tooManyRequests, unauthenticated } from '../errors.ts';
import type { FileAnswer } from './handlers.ts';
import { AddressRateLimit, RATE_LIMITED_MESSAGE } from './rateLimit.ts';

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
  const token = sessionToken(request);
  const user = await resolveSession(services.db, token, now);
  if (call.access === 'public') return user;
  if (!user) throw unauthenticated(token ? SESSION_EXPIRED_MESSAGE : SIGN_IN_MESSAGE);
  if (!roleMayCall(user.role, call.access)) throw forbidden('Not authorized.');
  return user;
}

function idempotencyScope(actor: Actor | null): string {
  if (!actor) return 'public';
  return actor.kind === 'user' ? `user:${actor.userId}` : `anonymous:${actor.keyId}`;
}

function requestHash(call: CallDef, body: unknown): string {
  return createHash('sha256')
    .update(`${call.method} ${call.path}\n${JSON.stringify(body ?? null)}`)
    .digest('base64url');
}

interface StoredAnswer {
  status: number;
  body: string;
}

/** A previous answer to the same key from the same caller, or a refusal if the key was reused differently. */
async function previousAnswer(
  db: Db,
  scope: string,
  key: string,
  hash: string,
  now: number,
): Promise<StoredAnswer | null> {
  const record = await db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('scope', '=', scope)
    .where('idem_key', '=', key)
    .executeTakeFirst();
  if (!record) return null;
  if (record.created_at <= now - IDEMPOTENCY_TTL_MS) {
    await db.deleteFrom('idempotency_records').where('id', '=', record.id).execute();
    return null;
  }
  if (record.request_hash !== hash) {
    throw new AppError('UNPROCESSABLE', 'This request key was already used for a different request.');
  }
  if (record.status_code === null || record.response_body === null) {
    throw new AppError('CONFLICT', 'This request is already being processed. Please wait a moment.');
  }
  return { status: record.status_code, body: record.response_body };
}

function sendFile(reply: FastifyReply, answer: FileAnswer) {
  const { filename, contentType, body } = answer.file;
  reply
    .header('Content-Type', contentType)
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('Access-Control-Expose-Headers', 'Content-Disposition');
  return reply.send(body);
}

export function registerCalls(
  app: FastifyInstance,
  services: Services,
  handlers: Partial<Record<CallName, AnyHandler>>,
) {
  const anonymousLimit = new AddressRateLimit(services.config.anonymousCallsPerMinute);
  for (const [name, handler] of Object.entries(handlers) as [CallName, AnyHandler][]) {
    const call = api[name] as CallDef;
    app.route({
      method: call.method,
      url: call.path,
      config: { failMsg: call.failMsg },
      handler: async (request, reply) => {
        const now = services.clock.now();
        const raw = call.method === 'GET' ? (request.query ?? {}) : (request.body ?? {});

        // Anonymous calls need their key fields to authenticate: check their shape first.
        let input: unknown;
        if (call.access === 'anonymous') {
          if (!anonymousLimit.take(request.ip, now)) throw tooManyRequests(RATE_LIMITED_MESSAGE);
          const parsed = call.request.safeParse(raw);
          if (!parsed.success) throw validationError(parsed.error);
          input = parsed.data;
        }
        const actor = await authenticate(services, call, request, raw, now);
        // Public calls (sign-in, sign-out, refresh, reset…) never depend on the subscription (DECISIONS.md).
        if (actor && !actor.paid && call.access !== 'public' && !call.whenUnpaid)
          throw new AppError('PAYMENT_REQUIRED', UNPAID_MESSAGE);
        if (input === undefined) {
          const parsed = call.request.safeParse(raw);
          if (!parsed.success) throw validationError(parsed.error);
          input = parsed.data;
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
        });
        const present = (answer: unknown) => {
          const checked = call.response.safeParse(answer);
          if (!checked.success) {
            request.log.error(
              { call: name, issues: checked.error.issues },
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

        if (!call.mutates || call.atomic === false) {
          const answer = await handler(input as never, context(services.db) as never);
          if (call.file) return sendFile(reply, answer as FileAnswer);
          const presented = present(answer);
          await runAfterCommit();
          return presented;
        }

        const key = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
        // Refused, never cut: two long keys cut to one would collide (issue 10).
        if (typeof key === 'string' && key.length > IDEMPOTENCY_KEY_MAX)
          throw badRequest(
            `The ${IDEMPOTENCY_KEY_HEADER} header must be at most ${IDEMPOTENCY_KEY_MAX} characters long.`,
          );
        const idempotencyKey =
          call.idempotent !== false && typeof key === 'string' && key.length > 0 ? key : null;
        const scope = idempotencyScope(actor);
        const hash = requestHash(call, raw);
        if (idempotencyKey) {
          const previous = await previousAnswer(services.db, scope, idempotencyKey, hash, now);
          if (previous) {
            reply.header('Idempotent-Replayed', 'true');
            return reply.code(previous.status).type('application/json').send(previous.body);
          }
        }

        let body: string;
        try {
          body = await services.db.transaction().execute(async (trx) => {
            if (idempotencyKey) {
              await trx
                .insertInto('idempotency_records')
                .values({
                  scope,
                  idem_key: idempotencyKey,
                  request_hash: hash,
                  status_code: null,
                  response_body: null,
                  created_at: now,
                })
                .execute();
            }
            const answer = present(await handler(input as never, context(trx as unknown as Db) as never));
            const serialised = JSON.stringify(answer);
            if (idempotencyKey) {
              await trx
                .updateTable('idempotency_records')
                .set({ status_code: 200, response_body: serialised })
                .where('scope', '=', scope)
                .where('idem_key', '=', idempotencyKey)
                .execute();
            }
            return serialised;
          });
        } catch (error) {
          // Two copies of one request raced: the other committed first, so answer as it did.
          if (idempotencyKey && isUniqueViolation(error)) {
            const previous = await previousAnswer(services.db, scope, idempotencyKey, hash, now);
            if (previous) {
              reply.header('Idempotent-Replayed', 'true');
              return reply.code(previous.status).type('application/json').send(previous.body);
            }
          }
          throw error;
        }
        await runAfterCommit();
        return reply.type('application/json').send(body);
      },
    });
  }
}

export function isUser(actor: Actor | null): actor is UserActor {
  return actor?.kind === 'user';
}
