/**
 * The hourly purge: expired sessions and single sign-on states, old idempotency records, rate-limit events and windows, spent
 * one-time tokens, and evaluations never completed. A job (runner.ts): one process runs it each hour.
 */
import { IDEMPOTENCY_TTL_MS, UNFINISHED_EVALUATION_PURGE_MS } from '../../common/constants.ts';
import { purgeExpiredSessions } from '../auth/sessions.ts';
import type { Services } from '../context.ts';
import { defineJob } from './runner.ts';
import { removeObjects } from '../modules/shared/photos.ts';

const HOUR = 60 * 60_000;

export async function runMaintenance(
  services: Pick<Services, 'db' | 'clock' | 'storage'>,
  at?: number,
): Promise<void> {
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
  // Single sign-ons never finished, or finished (decision 0720): a used state only has to outlive its expiry.
  await db.deleteFrom('sso_states').where('expires_at', '<=', now).execute();
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

async function purgeUnfinishedPhotos(
  services: Pick<Services, 'db' | 'storage'>,
  startedBefore: number,
): Promise<void> {
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

export const maintenanceJob = defineJob('purge', HOUR, (services, now) => runMaintenance(services, now));
