/**
 * Writes whose answers nobody reads, made together (docs/decisions/0755): on PostgreSQL one statement, the
 * first ones as data-modifying WITH clauses of the last, so one round trip instead of one each; on SQLite
 * (no data-modifying WITH, and a statement is a function call, not a round trip) one after another.
 *
 * PostgreSQL runs every clause of such a statement on the same snapshot, so the writes must not depend on
 * each other's effects (no write reads a row another one writes); each is still applied exactly once,
 * and all of it or nothing, like the statements one after another in the caller's transaction.
 */
import { sql, type Compilable, type OperationNodeSource } from 'kysely';
import { dialectOf } from './dialect.ts';
import type { Db } from './index.ts';

export type Write = OperationNodeSource & Compilable & { execute(): Promise<unknown> };

export async function writeTogether(db: Db, writes: readonly Write[]): Promise<void> {
  if (writes.length === 0) return;
  if (dialectOf(db) === 'sqlite' || writes.length === 1) {
    for (const write of writes) await write.execute();
    return;
  }
  const clauses = writes.slice(0, -1).map((write, i) => sql`${sql.ref(`write_${i}`)} as (${write})`);
  await sql`with ${sql.join(clauses)} ${writes[writes.length - 1]!}`.execute(db);
}
