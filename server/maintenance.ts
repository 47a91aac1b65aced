/** Periodic clean-up: expired sessions, old idempotency records and rate-limit events. */
import type { FastifyBaseLogger } from 'fastify';
import { IDEMPOTENCY_TTL_MS, UNFINISHED_EVALUATION_PURGE_MS } from '../common/constants.ts';
import { purgeExpiredSessions } from './auth/sessions.ts';
import type { Services } from './context.ts';

const HOUR = 60 * 60_000;

export async function runMaintenance(services: Services): Promise<void> {
  const now = services.clock.now();
  const { db } = services;
  await purgeExpiredSessions(db, now);
  await db
    .deleteFrom('idempotency_records')
    .where('created_at', '<=', now - IDEMPOTENCY_TTL_MS)
    .execute();
  await db
    .deleteFrom('rate_limit_events')
    .where('created_at', '<=', now - 24 * HOUR)
    .execute();
  await db
    .deleteFrom('one_time_tokens')
    .where('expires_at', '<=', now - 24 * HOUR)
    .execute();
  // An evaluation never completed is hidden everywhere and purged after 24 hours (docs/product-decisions.md).
  await db
    .deleteFrom('evaluations')
    .where('completed_at', 'is', null)
    .where('started_at', '<=', now - UNFINISHED_EVALUATION_PURGE_MS)
    .execute();
}

export function startMaintenance(services: Services, log: FastifyBaseLogger): () => void {
  const run = () =>
    runMaintenance(services).catch((error) => log.error({ err: error }, 'maintenance failed'));
  const first = setTimeout(run, 10_000);
  const timer = setInterval(run, HOUR);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
