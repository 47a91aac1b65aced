/**
 * The hourly purge: expired sessions, old idempotency records, rate-limit events and windows, spent
 * one-time tokens, and evaluations never completed. A job (runner.ts): one process runs it each hour.
 */
import { IDEMPOTENCY_TTL_MS, UNFINISHED_EVALUATION_PURGE_MS } from '../../common/constants.ts';
import { purgeExpiredSessions } from '../auth/sessions.ts';
import type { Services } from '../context.ts';
import { defineJob } from './runner.ts';

const HOUR = 60 * 60_000;

export async function runMaintenance(services: Pick<Services, 'db' | 'clock'>, at?: number): Promise<void> {
  const now = at ?? services.clock.now();
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
    .deleteFrom('rate_limit_windows')
    .where('window_start', '<=', now - HOUR)
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

export const maintenanceJob = defineJob('purge', HOUR, (services, now) => runMaintenance(services, now));
