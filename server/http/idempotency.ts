/**
 * A state-changing call runs in one transaction, and a retry carrying the same Idempotency-Key from the same
 * caller gets the first answer back instead of applying twice (docs/decisions/0002).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CallDef } from '../../common/api/index.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_TTL_MS } from '../../common/constants.ts';
import type { Actor } from '../context.ts';
import type { Db } from '../db/index.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { executeFirst, executeLast } from '../db/pgTransactions.ts';
import { AppError, badRequest } from '../errors.ts';

function idempotencyScope(actor: Actor | null): string {
  if (!actor) return 'public';
  if (actor.kind === 'anonymous') return `anonymous:${actor.keyId}`;
  return actor.tokenId !== null ? `token:${actor.tokenId}` : `user:${actor.userId}`;
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
  // An answer holding a secret is not kept (CallDef.secretAnswer): the retry learns it was applied.
  if (record.response_body === SECRET_ANSWER_KEPT) throw new AppError('CONFLICT', SECRET_ANSWER_MESSAGE);
  return { status: record.status_code, body: record.response_body };
}

const SECRET_ANSWER_KEPT = '';
export const SECRET_ANSWER_MESSAGE =
  'This request was already applied, and its answer (a secret shown once) is not kept. Look for the result in the list.';

function replay(reply: FastifyReply, previous: StoredAnswer) {
  reply.header('Idempotent-Replayed', 'true');
  return reply.code(previous.status).type('application/json').send(previous.body);
}

/**
 * Runs `work` (which answers the serialised response) in one transaction, at most once per key: the key is
 * recorded in the same transaction, so a retry finds either the committed answer or nothing at all. Answers
 * the reply when a previous answer was replayed, otherwise the serialised body to send after commit.
 */
export async function runOnce(
  db: Db,
  options: {
    call: CallDef;
    request: FastifyRequest;
    reply: FastifyReply;
    actor: Actor | null;
    raw: unknown;
    now: number;
  },
  work: (trx: Db) => Promise<string>,
): Promise<{ replayed: FastifyReply } | { body: string }> {
  const { call, request, reply, actor, raw, now } = options;
  const header = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  // Refused, never cut: two long keys cut to one would collide (issue 10).
  if (typeof header === 'string' && header.length > IDEMPOTENCY_KEY_MAX)
    throw badRequest(
      `The ${IDEMPOTENCY_KEY_HEADER} header must be at most ${IDEMPOTENCY_KEY_MAX} characters long.`,
    );
  const key = call.idempotent !== false && typeof header === 'string' && header.length > 0 ? header : null;
  const scope = idempotencyScope(actor);
  const hash = requestHash(call, raw);

  // The key is taken by inserting its record first, in the call's transaction (no read before: a retry is
  // rare, and the insert finds it anyway). A record already there, or a copy racing this one (PostgreSQL
  // makes the insert wait for its commit), fails the insert; the record then answers the retry.
  let keyTaken = false;
  const attempt = () =>
    db.transaction().execute(async (trx) => {
      if (key) {
        try {
          // With the BEGIN, and the answer below with the COMMIT: one round trip each (decision 0782).
          await executeFirst(
            trx,
            trx.insertInto('idempotency_records').values({
              scope,
              idem_key: key,
              request_hash: hash,
              status_code: null,
              response_body: null,
              created_at: now,
            }),
          );
        } catch (error) {
          keyTaken = isUniqueViolation(error);
          throw error;
        }
      }
      const serialised = await work(trx as unknown as Db);
      if (key) {
        await executeLast(
          trx,
          trx
            .updateTable('idempotency_records')
            .set({ status_code: 200, response_body: call.secretAnswer ? SECRET_ANSWER_KEPT : serialised })
            .where('scope', '=', scope)
            .where('idem_key', '=', key),
        );
      }
      return serialised;
    });

  for (let tries = 1; ; tries++) {
    try {
      return { body: await attempt() };
    } catch (error) {
      if (!key || !keyTaken) throw error;
      keyTaken = false;
      const previous = await previousAnswer(db, scope, key, hash, now);
      if (previous) return { replayed: replay(reply, previous) };
      // The record had expired (and is now deleted): the key is free for this request, once more.
      if (tries >= 2) throw error;
    }
  }
}
