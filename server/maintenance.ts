/** Periodic clean-up: expired sessions, old idempotency records and rate-limit events. */
import type { FastifyBaseLogger } from 'fastify';
import { IDEMPOTENCY_TTL_MS, UNFINISHED_EVALUATION_PURGE_MS } from '../common/constants.ts';
import { purgeExpiredSessions } from './auth/sessions.ts';
import type { Services } from './context.ts';
import { removeObjects } from './modules/shared/photos.ts';

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
  // An evaluation never completed is hidden everywhere and purged after 24 hours (docs/product-decisions.md),
  // its photos' files with it (issue 12).
  await purgeUnfinishedPhotos(services, now - UNFINISHED_EVALUATION_PURGE_MS);
  await db
    .deleteFrom('evaluations')
    .where('completed_at', 'is', null)
    .where('started_at', '<=', now - UNFINISHED_EVALUATION_PURGE_MS)
    .execute();
}

async function purgeUnfinishedPhotos(services: Services, startedBefore: number): Promise<void> {
  const { db, storage } = services;
  for (;;) {
    const photos = await db
      .selectFrom('result_photos')
      .innerJoin('evaluations', 'evaluations.id', 'result_photos.evaluation_id')
      .select([
        'result_photos.id',
        'result_photos.org_id',
        'result_photos.storage_key',
        'result_photos.thumb_key',
      ])
      .where('evaluations.completed_at', 'is', null)
      .where('evaluations.started_at', '<=', startedBefore)
      .limit(200)
      .execute();
    if (!photos.length) return;
    await db
      .deleteFrom('result_photos')
      .where('org_id', 'in', [...new Set(photos.map((photo) => photo.org_id))])
      .where(
        'id',
        'in',
        photos.map((photo) => photo.id),
      )
      .execute();
    await removeObjects(
      storage,
      photos.flatMap((photo) => [photo.storage_key, photo.thumb_key]),
    );
  }
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
