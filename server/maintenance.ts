/** Periodic clean-up: expired sessions, old idempotency records and rate-limit events. */
import type { FastifyBaseLogger } from 'fastify';
import { IDEMPOTENCY_TTL_MS, UNFINISHED_EVALUATION_PURGE_MS } from '../common/constants.ts';
import { purgeExpiredSessions } from './auth/sessions.ts';
import type { Services } from './context.ts';
import { sendActionReminders } from './modules/actions/reminders.ts';

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

/** How often the action reminders look for actions due today or overdue (docs/decisions/0671). */
export const ACTION_REMINDERS_EVERY_MS = 10 * 60_000;

/**
 * The action reminders' timer, in the app process. Each run claims its reminders in the database, so two
 * instances may run it at once; without SMTP_URL it says so once and stays quiet.
 */
export function startActionReminders(services: Services, log: FastifyBaseLogger): () => void {
  if (!services.config.smtpUrl) {
    log.info('action reminders are off: mail is not configured (set SMTP_URL)');
    return () => {};
  }
  const run = () =>
    sendActionReminders(services, services.clock.now())
      .then((outcome) => {
        for (const error of outcome.errors) log.error({ err: error }, 'action reminder not sent');
        if (outcome.due || outcome.overdue)
          log.info({ due: outcome.due, overdue: outcome.overdue }, 'action reminders sent');
      })
      .catch((error: unknown) => log.error({ err: error }, 'action reminders failed'));
  const first = setTimeout(run, 30_000);
  const timer = setInterval(run, ACTION_REMINDERS_EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
