/**
 * GET /healthz for load balancers and monitors: 200 when the database answers `select 1` within 2 s,
 * 503 otherwise. Never cached, no session needed, reveals nothing but the two states.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

export const HEALTH_DB_TIMEOUT_MS = 2_000;

export async function databaseAnswers(db: Db, timeoutMs = HEALTH_DB_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([sql`select 1`.execute(db).then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealth(app: FastifyInstance, db: Db) {
  app.get('/healthz', async (_request, reply) => {
    const ok = await databaseAnswers(db);
    reply.header('Cache-Control', 'no-store');
    if (ok) return { status: 'ok', database: 'ok' };
    return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
  });
}
