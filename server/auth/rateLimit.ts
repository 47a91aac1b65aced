/** Counted events in a sliding window, kept in the database so every server process shares them. */
import type { Db } from '../db/index.ts';

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
