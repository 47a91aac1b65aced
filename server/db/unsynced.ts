/**
 * Work whose commits need not survive the machine (docs/decisions/0752): on SQLite they are not synced
 * (`synchronous = NORMAL` while it runs, on the connection reserved for it), so they cost the event loop a
 * write to the log instead of a write and a wait for the disk. The log stays consistent: a power cut may
 * roll such a commit back, never corrupt the file, and the next synced commit (or checkpoint) makes it
 * durable with everything before it. Only for work that a lost commit leaves redoable, such as the fold of
 * pending counts (its claim and its sums are one transaction). PostgreSQL: the work runs as it is.
 */
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect.ts';
import { commitSyncOf } from './sqliteCommitSync.ts';

export async function unsynced<D, T>(db: Kysely<D>, work: (db: Kysely<D>) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite') return work(db);
  // The connection is reserved for the work: no other caller's commit runs between the two pragmas. The
  // level cannot change inside a transaction (SQLite refuses), so it is set around the work's.
  const commits = commitSyncOf(db);
  return db.connection().execute(async (connection) => {
    // A server's connection commits unsynced already (0752): its commits are only not waited for.
    if (commits) return commits.uncounted(() => work(connection));
    const level = await sql<{ synchronous: number }>`pragma synchronous`.execute(connection);
    const was = level.rows[0]!.synchronous;
    await sql`pragma synchronous = normal`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql.raw(`pragma synchronous = ${Number(was)}`).execute(connection);
    }
  });
}
