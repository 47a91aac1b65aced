/** Counted events in a sliding window, kept in the database so every server process shares them. */
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { DialectName } from '../db/dialect.ts';

export async function countEvents(db: Db, bucket: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('bucket', '=', bucket)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function recordEvent(db: Db, bucket: string, now: number): Promise<void> {
  await db.insertInto('rate_limit_events').values({ bucket, created_at: now }).execute();
}

export async function clearEvents(db: Db, bucket: string): Promise<void> {
  await db.deleteFrom('rate_limit_events').where('bucket', '=', bucket).execute();
}

export async function deleteEvent(db: Db, id: number): Promise<void> {
  await db.deleteFrom('rate_limit_events').where('id', '=', id).execute();
}

/**
 * Takes one of `max` slots of a bucket in the window, atomically across requests and processes, in one
 * transaction (the caller's, or its own): on PostgreSQL a transaction-scoped advisory lock on the bucket
 * serialises the takers until commit (others' uncommitted rows are invisible otherwise); on SQLite the
 * event is written first, which takes the database's write lock before the count. Answers the event's id
 * (to give the slot back), or null when the bucket is full.
 */
export async function takeEvent(
  db: Db,
  dialect: DialectName,
  bucket: string,
  since: number,
  now: number,
  max: number,
): Promise<number | null> {
  if (!db.isTransaction) {
    return db.transaction().execute((trx) => takeEvent(trx, dialect, bucket, since, now, max));
  }
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${bucket}))`.execute(db);
  const { id } = await db
    .insertInto('rate_limit_events')
    .values({ bucket, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if ((await countEvents(db, bucket, since)) <= max) return id;
  await deleteEvent(db, id);
  return null;
}

/**
 * Counts one request of a bucket in its fixed window (aligned to `windowMs`), with one upsert that every
 * process on the database shares: the count the statement returns includes this request and all others
 * before it, whatever process made them. False when the bucket is over `max` in this window. For limits
 * checked on every request (the -anon calls), where a row per event would be many (decision 0600).
 */
export async function takeWindowSlot(
  db: Db,
  bucket: string,
  windowMs: number,
  now: number,
  max: number,
): Promise<boolean> {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const row = await db
    .insertInto('rate_limit_windows')
    .values({ bucket, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['bucket', 'window_start'])
        .doUpdateSet({ count: sql<number>`rate_limit_windows.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count) <= max;
}
