/**
 * Issue 10, several instances: two real app processes on one PostgreSQL database behind a round-robin
 * proxy (as nginx with TRUST_PROXY=true would be). A session, an anonymous key and an Idempotency-Key
 * made through one hold on the other, the sign-in and -anon limits are shared, and the purge job runs
 * once. PostgreSQL only (SQLite is one machine's file): skipped without TEST_DATABASE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURES_MAX, UNFINISHED_EVALUATION_PURGE_MS } from '../../common/constants.ts';
import { FakeClock } from '../clock.ts';
import { RATE_LIMITED_MESSAGE } from '../http/rateLimit.ts';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/databases.ts';
import {
  buildBoard,
  buildCard,
  buildEvaluation,
  buildTeam,
  buildUser,
  DEFAULT_PASSWORD,
} from '../test/factories.ts';
import {
  callOver,
  cookieOf,
  roundRobinProxy,
  startServer,
  type HttpAnswer,
  type ServerProcess,
} from '../test/processes.ts';
import { startSmtpCapture, type SmtpCapture } from '../test/smtp.ts';

const PORTS = { first: 4400, second: 4401, proxy: 4402 };
const ANON_LIMIT = 20;
const served = (answer: HttpAnswer) => answer.headers.get('x-upstream');

describe.runIf(TEST_DIALECTS.includes('postgres'))('two app processes on one PostgreSQL [postgres]', () => {
  let created: TestDatabase;
  let smtp: SmtpCapture;
  let dir: string;
  let servers: ServerProcess[] = [];
  let proxy: Awaited<ReturnType<typeof roundRobinProxy>>;
  let planted: { team: Awaited<ReturnType<typeof buildTeam>>; unfinishedId: number; completedId: number };
  // The processes use the real clock; the factories one that reads the time when a test starts.
  const env = () => ({ db: created.database.db, clock: new FakeClock(Date.now()) });

  beforeAll(async () => {
    created = await createTestDatabase('postgres');
    smtp = await startSmtpCapture();
    dir = mkdtempSync(path.join(os.tmpdir(), 'cb-two-'));
    // What the purge job must delete (an evaluation left unfinished for over a day) and keep.
    const team = await buildTeam(env());
    const card = await buildCard(env(), team.org);
    const board = await buildBoard(env(), team.org, { cardIds: [card.id] });
    const long = Date.now() - UNFINISHED_EVALUATION_PURGE_MS - 60_000;
    const user = team.evaluator;
    const unfinished = await buildEvaluation(env(), team.org, {
      board,
      card,
      user,
      completedAt: null,
      startedAt: long,
    });
    const completed = await buildEvaluation(env(), team.org, { board, card, user, startedAt: long });
    planted = { team, unfinishedId: unfinished.id, completedId: completed.id };

    const settings = {
      DATABASE_URL: created.location,
      SMTP_URL: smtp.url,
      OUTBOX_DIR: dir,
      TRUST_PROXY: 'true',
      ANON_CALLS_PER_MINUTE: String(ANON_LIMIT),
      JOBS_POLL_SECONDS: '1',
      APP_URL: `http://127.0.0.1:${PORTS.proxy}`,
      // No SESSION_SECRET: both read the one the first generated into the database.
    };
    servers = await Promise.all([startServer(PORTS.first, settings), startServer(PORTS.second, settings)]);
    proxy = await roundRobinProxy(
      PORTS.proxy,
      servers.map((s) => s.url),
    );
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await smtp?.close();
    await created?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a session made on one process on the other', async () => {
    const user = await buildUser(env(), planted.team.org, { role: 'admin' });
    const login = await callOver(proxy.url, 'login', { username: user.email, password: DEFAULT_PASSWORD });
    expect(login.status).toBe(200);
    const cookie = cookieOf(login);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => callOver(proxy.url, 'getBoards', {}, { cookie })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map(served))).toEqual(new Set(['0', '1']));
    // Signed out on one, signed out on both.
    expect((await callOver(servers[0]!.url, 'logout', {}, { cookie })).status).toBe(200);
    expect((await callOver(servers[1]!.url, 'getBoards', {}, { cookie })).status).toBe(401);
  });

  it('accepts an anonymous key issued by one process on the other', async () => {
    const { team } = planted;
    const card = await buildCard(env(), team.org);
    const board = await buildBoard(env(), team.org, { hasAnonymous: true, cardIds: [card.id] });
    const issued = await callOver(
      servers[0]!.url,
      'getAnonymousEvaluationKey',
      { boardID: board.id },
      { cookie: team.viewer.cookie },
    );
    expect(issued.status).toBe(200);
    const fields = { orgName: team.org.name, boardID: board.id, anonKey: issued.body.key };
    const used = await callOver(servers[1]!.url, 'getBoardAnon', fields, {
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(used).toMatchObject({ status: 200, body: { board: { id: board.id } } });
  });

  it('applies an Idempotency-Key retried on the other process once', async () => {
    const { team } = planted;
    const name = `Retried line ${Date.now()}`;
    const body = { name, cardIDs: [], hasAnonymous: false };
    const options = { cookie: team.admin.cookie, idempotencyKey: `two-instances-${Date.now()}` };
    const first = await callOver(servers[0]!.url, 'addBoard', body, options);
    const retried = await callOver(servers[1]!.url, 'addBoard', body, options);
    expect(first.status).toBe(200);
    expect(retried).toMatchObject({ status: 200, body: first.body });
    // And sent to both at once.
    const raced = { ...options, idempotencyKey: `${options.idempotencyKey}-raced` };
    const racedBody = { ...body, name: `${name} raced` };
    const both = await Promise.all(servers.map((s) => callOver(s.url, 'addBoard', racedBody, raced)));
    expect(both.some((a) => a.status === 200)).toBe(true);
    for (const answer of both) expect([200, 409]).toContain(answer.status);
    const rows = await created.database.db
      .selectFrom('boards')
      .select('name')
      .where('org_id', '=', team.org.id)
      .where('name', 'in', [name, `${name} raced`])
      .execute();
    expect(rows.map((r) => r.name).sort()).toEqual([name, `${name} raced`]);
  });

  it('shares the sign-in limit: of 30 wrong passwords sent at once through the proxy, 10 are checked', async () => {
    const user = await buildUser(env(), planted.team.org);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        callOver(proxy.url, 'login', { username: user.email, password: `wrong password ${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 401)).toHaveLength(LOGIN_FAILURES_MAX);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(30 - LOGIN_FAILURES_MAX);
    expect(new Set(answers.map(served))).toEqual(new Set(['0', '1']));
    for (const server of servers) {
      const right = await callOver(server.url, 'login', { username: user.email, password: DEFAULT_PASSWORD });
      expect(right.status).toBe(429);
    }
  });

  it('shares the -anon limit of one address', async () => {
    const { team } = planted;
    const card = await buildCard(env(), team.org);
    const board = await buildBoard(env(), team.org, { hasAnonymous: true, cardIds: [card.id] });
    const issued = await callOver(
      proxy.url,
      'getAnonymousEvaluationKey',
      { boardID: board.id },
      { cookie: team.viewer.cookie },
    );
    const fields = { orgName: team.org.name, boardID: board.id, anonKey: issued.body.key };
    // The windows are whole minutes: start the burst well inside one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const from = { headers: { 'x-test-client': '198.51.100.2' } };
    const answers = await Promise.all(
      Array.from({ length: 2 * ANON_LIMIT }, () => callOver(proxy.url, 'getBoardAnon', fields, from)),
    );
    const answered = answers.filter((a) => a.status === 200);
    expect(answered).toHaveLength(ANON_LIMIT);
    expect(new Set(answered.map(served))).toEqual(new Set(['0', '1']));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(ANON_LIMIT);
    for (const answer of refused) expect(answer.body).toEqual({ errMsg: RATE_LIMITED_MESSAGE });
  }, 40_000);

  it('runs the purge job once across both processes', async () => {
    const { db } = created.database;
    const purge = () => db.selectFrom('job_runs').selectAll().where('name', '=', 'purge').executeTakeFirst();
    const deadline = Date.now() + 15_000;
    while (!(await purge())?.last_finished_at && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const first = await purge();
    expect(first).toMatchObject({ runs: 1, lease_owner: null, last_error: null });
    // Both keep asking every second: in three more seconds neither runs it again.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await purge()).toEqual(first);
    const ran = servers.map((s) => (s.output().match(/"job":"purge"[^\n]*"msg":"job ran"/g) ?? []).length);
    expect(ran.sort()).toEqual([0, 1]);

    const left = await db
      .selectFrom('evaluations')
      .select('id')
      .where('id', 'in', [planted.unfinishedId, planted.completedId])
      .execute();
    expect(left.map((r) => r.id)).toEqual([planted.completedId]);
  }, 30_000);
});
