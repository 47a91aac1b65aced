/**
 * The write-ahead log checkpointed by a worker thread (server/db/sqliteCheckpointer.ts, decision 0745): the
 * server's connection no longer checkpoints in its commits, the worker copies every frame back, and the
 * connection checkpoints by itself again whenever the worker is gone.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './index.ts';
import { startCheckpointer, WAL_HARD_LIMIT_BYTES, WAL_SIZE_LIMIT_BYTES } from './sqliteCheckpointer.ts';

describe('SQLite checkpoints in a worker', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'checkboard-checkpoint-'));
    file = path.join(dir, 'db.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function fill(database: Database, rows: number) {
    await sql`create table if not exists t (id integer primary key, body text not null)`.execute(database.db);
    // One commit: its frames are all in the log when it returns, whatever the worker's timer did before.
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows; i++)
        await sql`insert into t (body) values (${'x'.repeat(2_000)})`.execute(trx);
    });
  }

  it('leave commits to the worker, which copies every frame of the log into the file', async () => {
    const database = openDatabase({ kind: 'sqlite', file }, { backgroundCheckpoint: true });
    try {
      const pages = await sql<{
        wal_autocheckpoint: number;
      }>`pragma wal_autocheckpoint`.execute(database.db);
      expect(pages.rows[0]!.wal_autocheckpoint).toBe(0);

      // 3,000 rows of 2 kB: some 1,500 pages, past the automatic threshold of 1,000.
      await fill(database, 3_000);
      const report = await database.checkpointer!.checkpoint();
      expect(report.log).toBeGreaterThan(1_000);
      expect(report.checkpointed).toBe(report.log);
      // The rows are in the database file itself now, not only in the log.
      expect(statSync(file).size).toBeGreaterThan(3_000 * 2_000);
    } finally {
      await database.close();
    }
    const reopened = new SQLite(file, { readonly: true });
    expect(reopened.prepare('select count(*) as n from t').get()).toEqual({ n: 3_000 });
    reopened.close();
  });

  it('run on their own, every interval, without being asked', async () => {
    const connection = new SQLite(file);
    connection.pragma('journal_mode = WAL');
    connection.exec('create table t (id integer primary key, body text not null)');
    connection.pragma('wal_checkpoint(TRUNCATE)');
    // Measured before the rows: the worker is a thread of its own, and may copy some while they are written.
    const sizeBefore = statSync(file).size;
    const checkpointer = startCheckpointer(connection, file, { everyMs: 20 });
    try {
      const insert = connection.prepare('insert into t (body) values (?)');
      for (let i = 0; i < 500; i++) insert.run('y'.repeat(2_000));
      // The connection no longer checkpoints: only the worker can bring the rows into the file.
      await expect
        .poll(() => statSync(file).size, { timeout: 5_000 })
        .toBeGreaterThan(sizeBefore + 500 * 2_000);
    } finally {
      await checkpointer.stop();
      connection.close();
    }
  });

  it('cut the log back once the database is quiet, never in a commit (decision 0772)', async () => {
    const connection = new SQLite(file);
    connection.pragma('journal_mode = WAL');
    connection.exec('create table t (id integer primary key, body text not null)');
    // The worker's own timer out of the way: each checkpoint below is asked for.
    const checkpointer = startCheckpointer(connection, file, {
      everyMs: 3_600_000,
      walSizeLimitBytes: 256 * 1024,
    });
    const walSize = () => statSync(`${file}-wal`).size;
    const insert = connection.prepare('insert into t (body) values (?)');
    const write = connection.transaction((rows: number) => {
      for (let i = 0; i < rows; i++) insert.run('z'.repeat(2_000));
    });
    try {
      // A commit cuts the log back only past the hard limit.
      expect(connection.pragma('journal_size_limit', { simple: true })).toBe(WAL_HARD_LIMIT_BYTES);
      write(1_000);
      const grown = walSize();
      expect(grown).toBeGreaterThan(1024 * 1024);
      // Every frame copied, but written since the last checkpoint: not quiet, the file stays.
      expect(await checkpointer.checkpoint()).toMatchObject({ busy: 0, truncated: false });
      expect(walSize()).toBe(grown);
      // The next commit writes the log again from its start, and leaves the file's size alone.
      write(10);
      expect(walSize()).toBe(grown);
      expect(await checkpointer.checkpoint()).toMatchObject({ truncated: false });
      // Nothing written for a whole interval: now the worker cuts it back.
      expect(await checkpointer.checkpoint()).toMatchObject({ truncated: true });
      expect(walSize()).toBe(0);
      write(10);
      expect(connection.prepare('select count(*) as n from t').get()).toEqual({ n: 1_020 });
    } finally {
      await checkpointer.stop();
      connection.close();
    }
  });

  it('give checkpoints back to the connection when stopped, or when the worker dies', async () => {
    const connection = new SQLite(file);
    connection.pragma('journal_mode = WAL');
    const autocheckpoint = () => connection.pragma('wal_autocheckpoint', { simple: true });
    try {
      const stopped = startCheckpointer(connection, file);
      expect(autocheckpoint()).toBe(0);
      await stopped.stop();
      expect(autocheckpoint()).toBe(1_000);
      // Checkpointing by itself again, the connection cuts the log back at the usual size.
      expect(connection.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);

      const dying = startCheckpointer(connection, file);
      const problems: string[] = [];
      dying.reportProblemsTo((problem) => problems.push(problem));
      expect(autocheckpoint()).toBe(0);
      await dying.worker.terminate();
      await expect.poll(autocheckpoint).toBe(1_000);
      // Told to the server's log, and a checkpoint asked for now fails instead of waiting for ever.
      expect(problems).toEqual([
        'SQLite checkpoint worker stopped; the connection checkpoints by itself again',
      ]);
      await expect(dying.checkpoint()).rejects.toThrow();
    } finally {
      connection.close();
    }
  });

  it('are not started unless asked for', async () => {
    const database = openDatabase({ kind: 'sqlite', file });
    try {
      expect(database.checkpointer).toBeUndefined();
      const pages = await sql<{
        wal_autocheckpoint: number;
      }>`pragma wal_autocheckpoint`.execute(database.db);
      expect(pages.rows[0]!.wal_autocheckpoint).toBe(1_000);
    } finally {
      await database.close();
    }
  });
});
