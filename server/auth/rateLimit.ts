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
