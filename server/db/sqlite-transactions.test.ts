/**
 * SQLite transactions take the write lock when they begin (server/db/index.ts): a transaction that reads and
 * then writes is not refused because another process wrote in between.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './index.ts';

describe('SQLite transactions', () => {
  let dir: string;
  let database: Database;
  let other: SQLite.Database;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'checkboard-tx-'));
    const file = path.join(dir, 'tx.sqlite');
    database = openDatabase({ kind: 'sqlite', file });
    await sql`create table counter (id integer primary key, n integer not null)`.execute(database.db);
    await sql`insert into counter (id, n) values (1, 0)`.execute(database.db);
    // Another process on the same file, which does not wait for locks.
    other = new SQLite(file);
    other.pragma('busy_timeout = 0');
  });

  afterEach(async () => {
    other.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hold the write lock from their start, so a read-then-write is never refused as stale', async () => {
    const outcome = await database.db.transaction().execute(async (trx) => {
      const before = await sql<{ n: number }>`select n from counter where id = 1`.execute(trx);
      // A writer elsewhere must wait for this transaction (with a deferred begin it would have written,
      // and the update below would have failed with SQLITE_BUSY_SNAPSHOT).
      let otherWrote: string;
      try {
        other.prepare('update counter set n = n + 100 where id = 1').run();
        otherWrote = 'wrote';
      } catch (error) {
        otherWrote = (error as { code?: string }).code ?? String(error);
      }
      await sql`update counter set n = ${before.rows[0]!.n + 1} where id = 1`.execute(trx);
      return otherWrote;
    });
    expect(outcome).toBe('SQLITE_BUSY');
    // Once it has committed, the other process writes as usual.
    other.prepare('update counter set n = n + 100 where id = 1').run();
    const after = await sql<{ n: number }>`select n from counter where id = 1`.execute(database.db);
    expect(after.rows[0]!.n).toBe(101);
  });

  it('still roll back as a whole', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`update counter set n = 5 where id = 1`.execute(trx);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const row = other.prepare('select n from counter where id = 1').get() as { n: number };
    expect(row.n).toBe(0);
  });
});
