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

/**
 * A claim (an update answering the rows it took) with the writes that follow from it, together: on
 * PostgreSQL one statement, the claim its main part and the writes its WITH clauses (PostgreSQL runs the
 * main part first, then the clauses, so the claim's row locks are taken first, as when it went alone); on
 * SQLite the claim, then the writes only if it took a row. Answers how many rows the claim took.
 *
 * When it took none on PostgreSQL, the writes were tried all the same: the caller must then fail its
 * transaction, which takes them back. A write may fail where the claim lost its row: an insert of a key the
 * claim's winner wrote (make it `on conflict do nothing`), or of a reference to a row deleted since (a
 * foreign key violation, thrown: the caller answers it as the row gone).
 */
export async function claimTogether(
  db: Db,
  claim: OperationNodeSource & Compilable & { execute(): Promise<readonly unknown[]> },
  writes: readonly Write[],
): Promise<number> {
  if (dialectOf(db) === 'sqlite' || writes.length === 0) {
    const claimed = (await claim.execute()).length;
    if (claimed > 0) await writeTogether(db, writes);
    return claimed;
  }
  const clauses = writes.map((write, i) => sql`${sql.ref(`write_${i}`)} as (${write})`);
  const { rows } = await sql<unknown>`with ${sql.join(clauses)} ${claim}`.execute(db);
  return rows.length;
}
