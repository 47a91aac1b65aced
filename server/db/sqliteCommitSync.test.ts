/**
 * Commits synced off the event loop (decision 0752): the serving connection commits at NORMAL and tells
 * the commit sync of each commit (not of a transaction's inner statements, nor of reads); the sync covers
 * every commit made before it began, one at a time; a failed sync is told to the waiter and tried again;
 * and the server answers nothing while a commit is pending.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDurableAnswers } from '../http/durable.ts';
import { UNAVAILABLE_MESSAGE } from '../http/errors.ts';
import { openDatabase, type Database } from './index.ts';
import { commitSync, commitSyncOf } from './sqliteCommitSync.ts';
import { unsynced } from './unsynced.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'checkboard-commits-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A sync the test lets finish, counting the calls. */
function heldSync() {
  const calls: { release(): void; fail(error: Error): void }[] = [];
  const sync = () => new Promise<void>((resolve, reject) => calls.push({ release: resolve, fail: reject }));
  return { sync, calls };
}
const turn = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the serving connection', () => {
  let database: Database;
  beforeEach(async () => {
    database = openDatabase(
      { kind: 'sqlite', file: path.join(dir, 'db.sqlite') },
      { syncCommitsOffLoop: true },
    );
    await sql`create table probe (n integer not null)`.execute(database.db);
    await database.commits!.settled();
  });
  afterEach(async () => {
    await database.close();
  });

  it('commits at NORMAL, and its commits are pending until synced', async () => {
    const level = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db);
    expect(level.rows[0]!.synchronous).toBe(1);
    expect(commitSyncOf(database.db)).toBe(database.commits);
    const commits = database.commits!;
    expect(commits.pending).toBe(false);
    await sql`insert into probe (n) values (1)`.execute(database.db);
    expect(commits.pending).toBe(true);
    await commits.settled();
    expect(commits.pending).toBe(false);
    // Reads are no commits.
    await sql`select count(*) from probe`.execute(database.db);
    expect(commits.pending).toBe(false);
  });

  it("tells the commit of a transaction, not its statements, and a write through a reader's statement", async () => {
    const commits = database.commits!;
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into probe (n) values (2)`.execute(trx);
      await sql`delete from probe where n = 2 returning n`.execute(trx);
      expect(commits.pending).toBe(false);
    });
    expect(commits.pending).toBe(true);
    await commits.settled();
    await sql`insert into probe (n) values (3) returning n`.execute(database.db);
    expect(commits.pending).toBe(true);
    await commits.settled();
  });

  it('leaves the commits of unsynced work unwaited for', async () => {
    const commits = database.commits!;
    await unsynced(database.db, (connection) => sql`insert into probe (n) values (4)`.execute(connection));
    expect(commits.pending).toBe(false);
    const rows = await sql<{ n: number }>`select n from probe where n = 4`.execute(database.db);
    expect(rows.rows).toHaveLength(1);
  });
});

describe('the commit sync', () => {
  // Any file will do: the sync under test is the test's own.
  const wal = () => {
    const file = path.join(dir, 'log');
    writeFileSync(file, '');
    return file;
  };

  it('syncs every commit made before it began, and the ones after it in one more', async () => {
    const { sync, calls } = heldSync();
    const commits = commitSync(wal(), sync);
    commits.committed();
    const first = commits.settled();
    await turn();
    expect(calls).toHaveLength(1);
    commits.committed();
    commits.committed();
    const later = commits.settled();
    await turn();
    // One sync at a time: the later commits wait for the running one to end.
    expect(calls).toHaveLength(1);
    calls[0]!.release();
    await first;
    expect(commits.pending).toBe(true);
    await turn();
    expect(calls).toHaveLength(2);
    calls[1]!.release();
    await later;
    expect(commits.pending).toBe(false);
    await commits.close();
  });

  it('tells a failed sync to its waiter, and the next wait tries again', async () => {
    const { sync, calls } = heldSync();
    const commits = commitSync(wal(), sync);
    commits.committed();
    const waiting = commits.settled();
    await turn();
    calls[0]!.fail(new Error('EIO'));
    await expect(waiting).rejects.toThrow('EIO');
    expect(commits.pending).toBe(true);
    const again = commits.settled();
    await turn();
    expect(calls).toHaveLength(2);
    calls[1]!.release();
    await again;
    expect(commits.pending).toBe(false);
    await commits.close();
  });
});

describe('answers', () => {
  async function appWith(sync: (fd: number) => Promise<void>) {
    const file = path.join(dir, 'app-log');
    writeFileSync(file, '');
    const commits = commitSync(file, sync);
    const app = Fastify();
    registerDurableAnswers(app, commits);
    app.post('/write', async () => {
      commits.committed();
      return { done: true };
    });
    app.get('/read', async () => ({ read: true }));
    await app.ready();
    return { app, commits };
  }

  it('are sent only once the commits before them are synced', async () => {
    const { sync, calls } = heldSync();
    const { app, commits } = await appWith(sync);
    let answered = false;
    const write = app.inject({ method: 'POST', url: '/write' }).then((answer) => {
      answered = true;
      return answer;
    });
    await turn();
    expect(calls).toHaveLength(1);
    expect(answered).toBe(false);
    // A read answered meanwhile waits too: it may show the write.
    let readAnswered = false;
    const read = app.inject({ method: 'GET', url: '/read' }).then((answer) => {
      readAnswered = true;
      return answer;
    });
    await turn();
    expect(readAnswered).toBe(false);
    calls[0]!.release();
    expect((await write).json()).toEqual({ done: true });
    expect((await read).json()).toEqual({ read: true });
    // Nothing pending: answered at once, no sync.
    expect((await app.inject({ method: 'GET', url: '/read' })).statusCode).toBe(200);
    expect(calls).toHaveLength(1);
    await app.close();
    await commits.close();
  });

  it('are 503 when the sync fails', async () => {
    const { app, commits } = await appWith(() => Promise.reject(new Error('EIO')));
    const answer = await app.inject({ method: 'POST', url: '/write' });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toEqual({ errMsg: UNAVAILABLE_MESSAGE });
    await app.close();
    await commits.close();
  });
});
