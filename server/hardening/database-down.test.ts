/**
 * Issue 10, defect 5: with the database unreachable, calls answer 503 with their SPEC §8 message (so the
 * client's retry rule applies) instead of 500, /healthz says so, and the app recovers without a restart;
 * under concurrent load too (24 clients reading and writing while the link is cut and restored), where
 * every write retried under its Idempotency-Key is then stored exactly once.
 */
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../common/api/index.ts';
import { buildApp, type App } from '../app.ts';
import { FakeClock } from '../clock.ts';
import { openDatabase, type Database } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/databases.ts';
import { buildBoard, buildTeam } from '../test/factories.ts';
import { call, testConfig } from '../test/harness.ts';

const options = {
  clock: new FakeClock(),
  logger: false,
  webDir: '/nonexistent',
  config: testConfig({ smtpUrl: undefined, sessionSecret: 'outage-test-secret-0123456789abcdef' }),
} as const;

/** A TCP relay to PostgreSQL that the test can cut and restore, as a network or server outage would. */
async function relay(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const up = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await up();
  return { port, up, down };
}

async function health(app: App) {
  const response = await app.app.inject({ method: 'GET', url: '/healthz' });
  return { status: response.statusCode, body: response.json(), cache: response.headers['cache-control'] };
}

describe.runIf(TEST_DIALECTS.includes('postgres'))('PostgreSQL unreachable [postgres]', () => {
  let created: TestDatabase;
  let database: Database;
  let app: App;
  let link: Awaited<ReturnType<typeof relay>>;
  beforeAll(async () => {
    created = await createTestDatabase('postgres');
    const target = new URL(created.location);
    link = await relay(target);
    const viaRelay = new URL(created.location);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(link.port);
    database = openDatabase({ kind: 'postgres', url: viaRelay.toString() }, { poolSize: 3 });
    app = await buildApp({ ...options, database });
  });
  afterAll(async () => {
    await app?.app.close();
    await database?.close();
    await link?.down();
    await created?.drop();
  });

  it('answers 503 with each call’s message while it is down, says so in /healthz, and recovers', async () => {
    const team = await buildTeam({ db: created.database.db, clock: options.clock });
    expect(await health(app)).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
    expect((await call(app, 'getBoards', {}, { cookie: team.admin.cookie })).status).toBe(200);

    await link.down();
    const boards = await call(app, 'getBoards', {}, { cookie: team.admin.cookie });
    expect(boards).toMatchObject({ status: 503, body: { errMsg: api.getBoards.failMsg } });
    const login = await call(app, 'login', { username: team.admin.email, password: 'whatever it is' });
    expect(login).toMatchObject({
      status: 503,
      body: { errMsg: 'Unable to login. Please try again later.' },
    });
    const add = await call(
      app,
      'addBoard',
      { name: 'Outage line', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(add).toMatchObject({
      status: 503,
      body: { errMsg: 'Unable to create the board. Please try again.' },
    });
    expect(await health(app)).toMatchObject({
      status: 503,
      body: { status: 'unavailable', database: 'unreachable' },
      cache: 'no-store',
    });

    await link.up();
    expect(await health(app)).toMatchObject({ status: 200, body: { database: 'ok' } });
    expect((await call(app, 'getBoards', {}, { cookie: team.admin.cookie })).status).toBe(200);
  });

  it('under concurrent load answers only 200 or 503 while it goes down and up, and recovers without a restart', async () => {
    const team = await buildTeam({ db: created.database.db, clock: options.clock });
    const cookie = team.admin.cookie;
    const board = await buildBoard({ db: created.database.db, clock: options.clock }, team.org);
    type Seen = { at: number; done: number; status: number; errMsg?: string; added?: string; key?: string };
    const seen: Seen[] = [];
    let phase: 'up' | 'down' | 'back' | 'stop' = 'up';
    let sequence = 0;
    // 24 clients calling without pause: reads and writes, each write under its own Idempotency-Key.
    const worker = async (index: number) => {
      while (phase !== 'stop') {
        const at = Date.now();
        if (index % 2 === 0) {
          const answer = await call(app, 'getBoards', {}, { cookie });
          seen.push({ at, done: Date.now(), status: answer.status, errMsg: answer.body?.errMsg });
        } else {
          const content = `<p>Load note ${++sequence}</p>`;
          const key = `load-${sequence}`;
          const answer = await call(
            app,
            'addFeedback',
            { boardID: board.id, content },
            { cookie, idempotencyKey: key },
          );
          seen.push({
            at,
            done: Date.now(),
            status: answer.status,
            errMsg: answer.body?.errMsg,
            added: content,
            key,
          });
        }
      }
    };
    const workers = Array.from({ length: 24 }, (_, i) => worker(i));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    await pause(500);
    const cutAt = Date.now();
    phase = 'down';
    await link.down();
    // Down until at least 48 requests sent after the cut were answered (however loaded the machine is).
    const downUntil = Date.now() + 15_000;
    while (seen.filter((s) => s.at > cutAt + 100).length < 48 && Date.now() < downUntil) await pause(50);
    const restoredAt = Date.now();
    phase = 'back';
    await link.up();
    let recoveredAt = 0;
    const deadline = Date.now() + 15_000;
    while (!recoveredAt && Date.now() < deadline) {
      await pause(100);
      const since = seen.filter((s) => s.at > restoredAt);
      const lastFew = since.slice(-24);
      if (lastFew.length === 24 && lastFew.every((s) => s.status === 200)) recoveredAt = Date.now();
    }
    phase = 'stop';
    await Promise.all(workers);

    expect(new Set(seen.map((s) => s.status))).toEqual(new Set([200, 503]));
    // Sent and answered while it was down (past the requests in flight at the cut; one still waiting for a
    // connection when it came back may succeed): refused, each with its call's message.
    const whileDown = seen.filter((s) => s.at > cutAt + 100 && s.done < restoredAt);
    expect(whileDown.length).toBeGreaterThan(24);
    for (const s of whileDown) {
      expect(s.status).toBe(503);
      expect(s.errMsg).toBe(s.added ? api.addFeedback.failMsg : api.getBoards.failMsg);
    }
    expect(seen.filter((s) => s.done < cutAt).every((s) => s.status === 200)).toBe(true);
    expect(recoveredAt).toBeGreaterThan(0);
    // A write answered 503 may have committed before its answer was lost: retried under its
    // Idempotency-Key, as the client does, every write is then stored exactly once.
    const writes = seen.filter((s) => s.added);
    for (const s of writes.filter((s) => s.status === 503)) {
      const retried = await call(
        app,
        'addFeedback',
        { boardID: board.id, content: s.added! },
        { cookie, idempotencyKey: s.key! },
      );
      expect(retried.status).toBe(200);
    }
    const stored = (
      await created.database.db
        .selectFrom('feedback')
        .select('content')
        .where('org_id', '=', team.org.id)
        .execute()
    ).map((f) => f.content);
    expect(stored.sort()).toEqual(writes.map((s) => s.added!).sort());
    expect(await health(app)).toMatchObject({ status: 200, body: { database: 'ok' } });
  }, 40_000);
});

describe('SQLite locked by another process [sqlite]', () => {
  let dir: string;
  let database: Database;
  let app: App;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cb-outage-'));
    database = openDatabase({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
    await migrateToLatest(database.db, 'sqlite');
    app = await buildApp({ ...options, database });
  });
  afterAll(async () => {
    await app?.app.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a write that cannot get the database within its wait with 503, not 500', async () => {
    const team = await buildTeam({ db: database.db, clock: options.clock });
    expect(await health(app)).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
    const other = new SQLite(path.join(dir, 'db.sqlite'));
    other.exec('begin exclusive');
    try {
      const add = await call(
        app,
        'addBoard',
        { name: 'Locked line', cardIDs: [], hasAnonymous: false },
        { cookie: team.admin.cookie },
      );
      expect(add).toMatchObject({
        status: 503,
        body: { errMsg: 'Unable to create the board. Please try again.' },
      });
    } finally {
      other.exec('rollback');
      other.close();
    }
    const retried = await call(
      app,
      'addBoard',
      { name: 'Locked line', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(retried.status).toBe(200);
  });
});
