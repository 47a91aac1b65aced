/**
 * `npm run bench`: issue 5's performance figures, on SQLite and on PostgreSQL (bench/README.md).
 *
 * For each database: create it, migrate it with the server's migrations, seed it in bulk (bench/seed.ts),
 * EXPLAIN the hot queries (bench/explain.ts), then run the real server in a child process (bench/server.ts)
 * and measure it over HTTP: get-evaluations, search-evaluations pages 1 and 1,000, add-results at N
 * concurrent evaluators, and get-excel of 100,000 evaluations in a fresh server process (rows per second,
 * peak RSS, RSS growth from 10% to 100% of the file). Prints a table; writes JSON and plans to bench/results/.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { api } from '../common/api/index.ts';
import { insertSession, SESSION_COOKIE } from '../server/auth/sessions.ts';
import { openDatabase, type Database } from '../server/db/index.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { evaluationsStart } from '../web/features/evaluations/calendar.ts';
import { explainHotQueries, type HotContext, type Location } from './explain.ts';
import { load, sequential, stats, TimedClient, type Stats } from './http.ts';
import { bareExcel, getBoardsSideBySide, startBare, type SideBySide } from './overhead.ts';
import { graph } from './graph.ts';
import {
  grow,
  ITEMS_PER_CARD,
  postgresBulk,
  seed,
  sqliteBulk,
  type Bulk,
  type Growth,
  type SeedPlan,
} from './seed.ts';
import { EVALUATIONS, numberSetting, OTHER_EVALUATIONS, resultsDir } from './settings.ts';
import { changeBoardDay, dayOf } from './boardChanges.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
/** What a browser sends (decision 0777: API answers of JSON come compressed to it). */
const COMPRESSED = 'gzip, deflate, br, zstd';

const EXPORT_EVALUATIONS = numberSetting(
  'BENCH_EXPORT_EVALUATIONS',
  Math.min(100_000, Math.floor(EVALUATIONS / 10)),
);
const CONCURRENCY = numberSetting('BENCH_CONCURRENCY', 50);
const PER_EVALUATOR = numberSetting('BENCH_RESULTS_PER_EVALUATOR', 20);
const SAMPLES = numberSetting('BENCH_SAMPLES', 300);
const THINK_MS = numberSetting('BENCH_THINK_MS', 1000);
const PAGE = Math.max(1, Math.min(1000, Math.floor(EVALUATIONS / 48)));
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as (
  'sqlite' | 'postgres'
)[];
const PG_URL =
  process.env.BENCH_PG_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REUSE = process.env.BENCH_REUSE === '1';
const KEEP = REUSE || process.env.BENCH_KEEP === '1';
const iso = (ms: number) => new Date(ms).toISOString();
const say = (line: string) => console.log(line);
const secondsSince = (start: number) => `${((performance.now() - start) / 1000).toFixed(1)} s`;

const plan: SeedPlan = {
  evaluations: EVALUATIONS,
  otherOrganisations: 20,
  otherEvaluations: OTHER_EVALUATIONS,
  boards: 50,
  cardsPerBoard: 10,
  evaluators: Math.max(100, CONCURRENCY),
  now: Date.now(),
};
const planKey = JSON.stringify({
  // 2: evaluation_counts filled (issue 9); 3: evaluation_totals too.
  v: 3,
  evaluations: EVALUATIONS,
  other: OTHER_EVALUATIONS,
  evaluators: plan.evaluators,
});

interface Prepared {
  location: Location;
  databaseUrl: string;
  drop(): Promise<void>;
}

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

async function isSeeded(database: Database): Promise<boolean> {
  const row = await database.db
    .selectFrom('app_settings')
    .select('value')
    .where('name', '=', 'bench_plan')
    .executeTakeFirst()
    .catch(() => undefined);
  return row?.value === planKey;
}

/**
 * The bulk load's pages on the disk before anything is measured. PostgreSQL: CHECKPOINT. Left to the
 * checkpointer, gigabytes of them were written during the first measurements, and every commit's sync waited
 * behind them: add-results' p95 was 72.9 ms straight after seeding and 23.3 ms ten minutes later on the
 * twelfth host (bench/README). SQLite: the WAL checkpointed into the file, then the file synced, since the
 * seeding writes with `synchronous = OFF` and would otherwise leave the file's last pages to the kernel's
 * writeback during the first measurements. (On the thirteenth host the sync took 0.2 s: little was left.)
 */
async function writeOut(bulk: Bulk) {
  const started = performance.now();
  if (bulk.dialect === 'postgres') {
    await bulk.run('checkpoint');
    say(`  checkpoint: ${secondsSince(started)}`);
    return;
  }
  await bulk.run('pragma wal_checkpoint(truncate)');
  if (bulk.file) {
    const fd = openSync(bulk.file, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  say(`  checkpoint and sync: ${secondsSince(started)}`);
}

/**
 * A reused database read into the kernel's page cache before it is measured, as a server's working set is
 * once it has run a while: left idle, or pushed out by the other databases' runs (a scale shape writes
 * ~15 GB), its pages come back from the disk during the first measurements, and on 2026-12-01 add-results'
 * p95 read 43.6 ms on SQLite against 7.3 ms measured straight after seeding (bench/README).
 */
function prewarmFile(file: string) {
  const started = performance.now();
  const chunk = Buffer.allocUnsafe(8 * 1024 * 1024);
  const fd = openSync(file, 'r');
  let bytes = 0;
  try {
    for (let read; (read = readSync(fd, chunk, 0, chunk.length, bytes)) > 0;) bytes += read;
  } finally {
    closeSync(fd);
  }
  say(`  read into the page cache: ${(bytes / 1024 ** 3).toFixed(1)} GB in ${secondsSince(started)}`);
}

/** PostgreSQL's tables and indexes of the reused database read into the page cache (pg_prewarm, 'read'). */
async function prewarmPostgres(databaseUrl: string) {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_prewarm');
    const { rows } = await client.query<{ blocks: string }>(
      `select sum(pg_prewarm(c.oid, 'read')) as blocks from pg_class c
        where c.relkind in ('r', 'i', 't') and c.relnamespace = 'public'::regnamespace`,
    );
    await client.query('drop extension pg_prewarm');
    const gb = (Number(rows[0]!.blocks) * 8192) / 1024 ** 3;
    say(`  read into the page cache (pg_prewarm): ${gb.toFixed(1)} GB in ${secondsSince(started)}`);
  } catch (error) {
    say(`  not read into the page cache (pg_prewarm: ${(error as Error).message})`);
  } finally {
    await client.end();
  }
}

async function seedInto(database: Database, bulk: Bulk) {
  const started = performance.now();
  say(
    `  seeding ${EVALUATIONS.toLocaleString('en')} evaluations (+${OTHER_EVALUATIONS.toLocaleString('en')} in 20 other organisations)`,
  );
  const seeded = await seed(bulk, plan, (line) => say(line));
  say(`  ${seeded.results.toLocaleString('en')} results; seeded in ${secondsSince(started)}`);
  const analysed = performance.now();
  await bulk.run(bulk.dialect === 'postgres' ? 'vacuum analyze' : 'analyze');
  say(`  ${bulk.dialect === 'postgres' ? 'vacuum analyze' : 'analyze'}: ${secondsSince(analysed)}`);
  await writeOut(bulk);
  await database.db.insertInto('app_settings').values({ name: 'bench_plan', value: planKey }).execute();
}

async function prepare(dialect: 'sqlite' | 'postgres'): Promise<Prepared> {
  if (dialect === 'sqlite') {
    const file =
      process.env.BENCH_SQLITE_FILE || path.join(os.tmpdir(), `checkboard-bench-${EVALUATIONS}.sqlite`);
    const remove = () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    };
    let database = existsSync(file) && REUSE ? openDatabase({ kind: 'sqlite', file }) : null;
    if (!database || !(await isSeeded(database))) {
      await database?.close();
      remove();
      database = openDatabase({ kind: 'sqlite', file });
      await migrateToLatest(database.db, 'sqlite');
      const bulk = sqliteBulk(file);
      await seedInto(database, bulk);
      await bulk.close();
    } else {
      say(`  reusing ${file}`);
      prewarmFile(file);
    }
    await database.close();
    return {
      location: { dialect, file },
      databaseUrl: `sqlite:${file}`,
      drop: async () => (KEEP ? undefined : remove()),
    };
  }
  const name = REUSE
    ? `checkboard_bench_${EVALUATIONS}`
    : `checkboard_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const exists = (await adminQuery(`select 1 from pg_database where datname = '${name}'`)).rowCount === 1;
  let database = exists ? openDatabase({ kind: 'postgres', url: url.toString() }) : null;
  if (!database || !(await isSeeded(database))) {
    await database?.close();
    await adminQuery(`drop database if exists ${name} with (force)`);
    await adminQuery(`create database ${name}`);
    database = openDatabase({ kind: 'postgres', url: url.toString() });
    await migrateToLatest(database.db, 'postgres');
    const bulk = await postgresBulk(url.toString());
    await seedInto(database, bulk);
    await bulk.close();
  } else {
    say(`  reusing database ${name}`);
    await prewarmPostgres(url.toString());
  }
  await database.close();
  return {
    location: { dialect, url: url.toString() },
    databaseUrl: url.toString(),
    drop: async () => {
      if (!KEEP) await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

interface Fixture extends HotContext {
  boards: { id: number; cardIds: number[] }[];
  itemsOf: Map<number, { id: number; position: number }[]>;
  evaluators: { id: number; email: string; cookie: string }[];
  ownerCookie: string;
  exportEvaluations: number;
  exportRows: number;
}

/**
 * Ids, sessions and cursors the measurements need, read from the seeded database: the search's deep page
 * `page` (its cursor, the last row of the page before), and the newest `exportEvaluations` for get-excel.
 */
async function fixture(
  databaseUrl: string,
  sizes: { page: number; exportEvaluations: number; now: number } = {
    page: PAGE,
    exportEvaluations: EXPORT_EVALUATIONS,
    now: plan.now,
  },
): Promise<Fixture> {
  const config = databaseUrl.startsWith('sqlite:')
    ? ({ kind: 'sqlite', file: databaseUrl.slice('sqlite:'.length) } as const)
    : ({ kind: 'postgres', url: databaseUrl } as const);
  const { db, close } = openDatabase(config);
  try {
    const org = await db
      .selectFrom('organizations')
      .select('id')
      .where('name', '=', 'Bench Main')
      .executeTakeFirstOrThrow();
    const users = await db
      .selectFrom('users')
      .select(['id', 'email', 'role'])
      .where('org_id', '=', org.id)
      .orderBy('id')
      .execute();
    const owner = users.find((u) => u.role === 'owner')!;
    const evaluatorRows = users.filter((u) => u.role === 'evaluator').slice(0, CONCURRENCY);
    const boardCards = await db
      .selectFrom('board_cards')
      .select(['board_id', 'card_id'])
      .where('org_id', '=', org.id)
      .orderBy('board_id')
      .orderBy('card_id')
      .execute();
    const boards = new Map<number, number[]>();
    for (const row of boardCards)
      boards.set(row.board_id, [...(boards.get(row.board_id) ?? []), row.card_id]);
    const items = await db
      .selectFrom('card_items')
      .select(['id', 'card_id', 'position'])
      .where('org_id', '=', org.id)
      .orderBy('card_id')
      .orderBy('position')
      .execute();
    const itemsOf = new Map<number, { id: number; position: number }[]>();
    for (const item of items) itemsOf.set(item.card_id, [...(itemsOf.get(item.card_id) ?? []), item]);

    const now = Date.now();
    const session = async (user: { id: number }) => {
      const { token } = await insertSession(db, { id: user.id, orgId: org.id }, now, 12 * 60 * 60_000);
      return `${SESSION_COOKIE}=${token}`;
    };
    const evaluators = [];
    for (const user of evaluatorRows)
      evaluators.push({ id: user.id, email: user.email, cookie: await session(user) });

    const newest = () =>
      db
        .selectFrom('evaluations')
        .select(['id', 'completed_at'])
        .where('org_id', '=', org.id)
        .where('completed_at', 'is not', null)
        .where('completed_at', '<=', sizes.now)
        .orderBy('completed_at', 'desc')
        .orderBy('id', 'desc');
    const first = await newest().limit(1).executeTakeFirstOrThrow();
    const cursor = await newest()
      .offset((sizes.page - 1) * 48 - 1)
      .limit(1)
      .executeTakeFirst();
    const exportFrom = await newest()
      .offset(sizes.exportEvaluations - 1)
      .limit(1)
      .executeTakeFirstOrThrow();
    const exported = await db
      .selectFrom('evaluations')
      .innerJoin('results', 'results.evaluation_id', 'evaluations.id')
      .select((eb) => [
        eb.fn.count<number>('results.id').as('rows'),
        eb.fn.count<number>('evaluations.id').distinct().as('evaluations'),
      ])
      .where('evaluations.org_id', '=', org.id)
      .where('evaluations.completed_at', '>=', exportFrom.completed_at!)
      .where('evaluations.completed_at', '<=', first.completed_at!)
      .executeTakeFirstOrThrow();
    const boardList = [...boards.entries()].map(([id, cardIds]) => ({ id, cardIds }));
    const firstCard = boardList[0]!.cardIds[0]!;
    return {
      orgId: org.id,
      ownerId: owner.id,
      ownerEmail: owner.email,
      ownerCookie: await session(owner),
      evaluatorId: evaluators[0]!.id,
      evaluatorEmail: evaluators[0]!.email,
      evaluators,
      boardId: boardList[0]!.id,
      cardId: firstCard,
      itemIds: itemsOf.get(firstCard)!.map((i) => i.id),
      boards: boardList,
      itemsOf,
      now,
      maxDateTime: iso(first.completed_at!),
      page1000: cursor
        ? { previousDateTime: iso(cursor.completed_at!), previousID: cursor.id }
        : { previousDateTime: iso(first.completed_at!), previousID: first.id },
      exportStart: iso(exportFrom.completed_at!),
      exportEvaluations: Number(exported.evaluations),
      exportRows: Number(exported.rows),
    };
  } finally {
    await close();
  }
}

/**
 * By default (BENCH_TSX=1 to run it under tsx instead): the server compiled by tsc (tsconfig.server.json, as the build makes dist/, but into
 * bench/results/compiled) and run by plain node, for production-like memory figures: tsx keeps the
 * transformed sources and their maps in the heap. BENCH_SERVER_ENTRY names another JavaScript entry.
 * The launcher opens and builds the app as server/main.ts and bench/server.ts do (SQLite's checkpoints in
 * their worker, decision 0745; exports in workers, decision 0750; item_totals folded on a timer, 0751).
 */
let serverEntry: string | undefined = process.env.BENCH_SERVER_ENTRY || undefined;
const LAUNCHER = `import { buildApp } from './server/app.js';
import { loadConfig } from './server/config.js';
import { openDatabase } from './server/db/index.js';
import { startItemTotalsFold } from './server/jobs/itemTotalsFold.js';
const config = loadConfig({ ...process.env, NODE_ENV: 'production' });
const database = openDatabase(config.database, { backgroundCheckpoint: true, syncCommitsOffLoop: true });
const { app } = await buildApp({ config, database, webDir: '/nonexistent', exportWorkers: true });
const stopFold = startItemTotalsFold(database.db, app.log);
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: app.server.address().port });
const stop = async () => { stopFold(); await app.close(); await database.close(); process.exit(0); };
process.once('SIGTERM', stop);
process.once('disconnect', stop);
`;

function compileServer(): string {
  const outDir = path.join(resultsDir, 'compiled');
  rmSync(outDir, { recursive: true, force: true });
  const tsc = path.join(here, '..', 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(
    process.execPath,
    [tsc, '-p', 'tsconfig.server.json', '--outDir', outDir, '--sourceMap', 'false'],
    {
      cwd: path.join(here, '..'),
      stdio: 'inherit',
    },
  );
  writeFileSync(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(path.join(outDir, 'bench-server.js'), LAUNCHER);
  return path.join(outDir, 'bench-server.js');
}

interface Server {
  child: ChildProcess;
  client: TimedClient;
  /** How many of a call's requests so far took at most each bucket's time, timed in the server. */
  timesInServer(call: string): Promise<ServerReading>;
  stop(): Promise<void>;
}

/** The server's own request timing (/metrics, decision 0603): Fastify's request to response, no client in it. */
const METRICS_TOKEN = `bench-metrics-${randomUUID()}`;

/**
 * One scrape of /metrics: a call's cumulative latency buckets (ms → requests), the event loop's largest and
 * 99th-percentile delay since the last scrape (prom-client's monitor, reset by each scrape, less its tick:
 * see heldUpMs), and the garbage collections so far (count and seconds, by kind).
 */
interface ServerReading {
  buckets: Map<number, number>;
  loopMaxMs: number;
  loopP99Ms: number;
  gc: Map<string, { count: number; seconds: number }>;
}

/**
 * The tick of both event-loop monitors (prom-client's default precision in the server, ours in the client).
 * Node's monitor records the time between its ticks, not how late a tick was: an idle loop reads 10.1 ms.
 */
const LOOP_MONITOR_TICK_MS = 10;

/** How long the loop was held up beyond the monitor's tick, from what the monitor recorded (ms). */
function heldUpMs(recordedMs: number): number {
  return Math.max(0, recordedMs - LOOP_MONITOR_TICK_MS);
}

async function readServer(port: number, call: string): Promise<ServerReading> {
  const answer = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  if (!answer.ok) throw new Error(`/metrics answered ${answer.status}`);
  const reading: ServerReading = { buckets: new Map(), loopMaxMs: NaN, loopP99Ms: NaN, gc: new Map() };
  const value = (line: string) => Number(line.slice(line.lastIndexOf(' ') + 1));
  for (const line of (await answer.text()).split('\n')) {
    if (line.startsWith('nodejs_eventloop_lag_max_seconds '))
      reading.loopMaxMs = heldUpMs(value(line) * 1000);
    if (line.startsWith('nodejs_eventloop_lag_p99_seconds '))
      reading.loopP99Ms = heldUpMs(value(line) * 1000);
    const gc = /^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\}/.exec(line);
    if (gc) {
      const entry = reading.gc.get(gc[2]!) ?? { count: 0, seconds: 0 };
      if (gc[1] === 'sum') entry.seconds = value(line);
      else entry.count = value(line);
      reading.gc.set(gc[2]!, entry);
    }
    if (!line.startsWith('checkboard_http_request_duration_seconds_bucket{')) continue;
    if (!line.includes(`call="${call}"`)) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (le === undefined || le === '+Inf') continue;
    reading.buckets.set(Number(le) * 1000, value(line));
  }
  return reading;
}

/**
 * Between two readings: the share of the requests that took at most 5, 10 and 25 ms in the server; the
 * server's event loop delay (largest, 99th percentile) and its major collections; and the client's own
 * event loop delay over the same time, so a tail the server did not see can be told from the client's.
 */
interface TimesInServer {
  under: { ms: number; share: number }[];
  loopMaxMs: number;
  loopP99Ms: number;
  majorGc: { count: number; ms: number };
  clientLoopMaxMs: number;
  clientLoopP99Ms: number;
}

function timesBetween(
  before: ServerReading,
  after: ServerReading,
  total: number,
  client: { maxMs: number; p99Ms: number },
): TimesInServer {
  const major = (r: ServerReading) => r.gc.get('major') ?? { count: 0, seconds: 0 };
  return {
    under: [5, 10, 25].map((limit) => ({
      ms: limit,
      share: total ? ((after.buckets.get(limit) ?? 0) - (before.buckets.get(limit) ?? 0)) / total : 0,
    })),
    loopMaxMs: after.loopMaxMs,
    loopP99Ms: after.loopP99Ms,
    majorGc: {
      count: major(after).count - major(before).count,
      ms: (major(after).seconds - major(before).seconds) * 1000,
    },
    clientLoopMaxMs: client.maxMs,
    clientLoopP99Ms: client.p99Ms,
  };
}

async function startServer(databaseUrl: string): Promise<Server> {
  const entry = serverEntry ?? path.join(here, 'server.ts');
  const child = fork(entry, [], {
    // BENCH_NODE_ARGS: extra node flags for the server, e.g. --cpu-prof to profile it.
    execArgv: [
      ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []),
      ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      APP_URL: 'http://127.0.0.1',
      SESSION_SECRET: `bench-${randomUUID()}-secret-of-enough-length`,
      LOG_LEVEL: 'warn',
      METRICS_TOKEN,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the benchmark server exited (${code}) before listening`)));
  });
  const client = new TimedClient(port, CONCURRENCY + 8);
  return {
    child,
    client,
    timesInServer: (call) => readServer(port, call),
    stop: async () => {
      client.close();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function rssOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

function expectOk(answer: { status: number; body: Buffer }, what: string) {
  if (answer.status !== 200)
    throw new Error(`${what} answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
}

/** A timed call's milliseconds, once it is known to have succeeded. */
async function timed(answer: Promise<{ status: number; body: Buffer; ms: number }>, what: string) {
  const done = await answer;
  expectOk(done, what);
  return done.ms;
}

interface Figures {
  database: string;
  /** The board unchanged since it was last asked for: its answer kept (decision 0784). */
  getEvaluations: Stats & { rows: number };
  /** The board changed today before every call (a completion, feedback): today's rows read (decision 0786). */
  getEvaluationsToday: Stats;
  /** The board changed on the window's first day before every call: its window read and written afresh. */
  getEvaluationsAfresh: Stats;
  /** The same calls as Chromium asks them (its Accept-Encoding; decision 0777), and the bytes sent. */
  getEvaluationsCompressed?: Stats & { bytes: number; plainBytes: number };
  searchPage1: Stats;
  searchPageN: Stats;
  addEvaluation: Stats;
  addResultsPaced: Stats;
  addResultsPacedInServer: TimesInServer;
  addResultsClosed: Stats;
  getBoards: SideBySide;
  bareExcel: { rows: number; seconds: number; rowsPerSecond: number; megabytes: number };
  excel: {
    evaluations: number;
    rows: number;
    seconds: number;
    rowsPerSecond: number;
    megabytes: number;
    rssBefore: number;
    rssAt10: number;
    peakRss: number;
    growth: number;
    tenths: number[];
    secondPeak: number;
    hwm: number;
  };
}

/**
 * add-evaluation then add-results, each evaluator a worker with a session of its own. Each evaluator starts
 * `perEvaluator` (PER_EVALUATOR) evaluations to complete at a human pace, and with `saturation` as many again
 * to complete as fast as possible. `pacedInto` receives the paced completions' latencies.
 */
async function addResultsUnderLoad(
  server: Server,
  f: Fixture,
  saturation: boolean,
  { perEvaluator = PER_EVALUATOR, pacedInto }: { perEvaluator?: number; pacedInto?: number[] } = {},
): Promise<{ addEvaluation: Stats; paced: Stats; pacedInServer: TimesInServer; closed: Stats | undefined }> {
  const { client } = server;
  const rounds = saturation ? 2 : 1;
  const started: number[][] = f.evaluators.map(() => []);
  const cards = f.evaluators.map((_, worker) =>
    Array.from({ length: rounds * perEvaluator }, (_, j) => {
      const board = f.boards[(worker * 7 + j) % f.boards.length]!;
      return { boardID: board.id, cardID: board.cardIds[j % board.cardIds.length]! };
    }),
  );
  const addEvaluation = await load(f.evaluators.length, rounds * perEvaluator, async (worker, j) => {
    const answer = await client.call(api.addEvaluation.path, cards[worker]![j], {
      cookie: f.evaluators[worker]!.cookie,
      idempotencyKey: randomUUID(),
      keepBody: true,
    });
    expectOk(answer, 'add-evaluation');
    started[worker]!.push((JSON.parse(answer.body.toString()) as { id: number }).id);
    return answer.ms;
  });
  const addResults = async (worker: number, j: number) => {
    const items = f.itemsOf.get(cards[worker]![j]!.cardID)!;
    const results = items.map(({ id, position }) => {
      if (position >= 1 && position <= 7) return { item_id: id, pass: (worker + j + position) % 23 !== 0 };
      if (position === 8) return { item_id: id, text_result: `Checked by worker ${worker}` };
      if (position === 9) return { item_id: id, numeric_result: worker + j / 10 };
      return { item_id: id };
    });
    const answer = await client.call(
      api.addResults.path,
      { evalID: started[worker]![j], results },
      { cookie: f.evaluators[worker]!.cookie, idempotencyKey: randomUUID() },
    );
    expectOk(answer, 'add-results');
    return answer.ms;
  };
  // Evaluators at work: each submits, then thinks for a random 0-2 x THINK_MS (a card takes a person
  // a minute or more; the default second is far faster than anyone evaluates).
  const before = await server.timesInServer('addResults');
  const clientLoop = monitorEventLoopDelay({ resolution: LOOP_MONITOR_TICK_MS });
  clientLoop.enable();
  const addResultsPaced = await load(
    f.evaluators.length,
    perEvaluator,
    async (worker, j) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * THINK_MS));
      return addResults(worker, j);
    },
    pacedInto,
  );
  clientLoop.disable();
  const pacedInServer = timesBetween(
    before,
    await server.timesInServer('addResults'),
    f.evaluators.length * perEvaluator,
    { maxMs: heldUpMs(clientLoop.max / 1e6), p99Ms: heldUpMs(clientLoop.percentile(99) / 1e6) },
  );
  // Saturation: every evaluator submits again the moment the last answer arrives.
  const addResultsClosed = saturation
    ? await load(f.evaluators.length, perEvaluator, (worker, j) => addResults(worker, perEvaluator + j))
    : undefined;
  return { addEvaluation, paced: addResultsPaced, pacedInServer, closed: addResultsClosed };
}

/** The start the board view asks get-evaluations for (This Month and 28 Days), as the page works it out. */
const boardViewStart = () => evaluationsStart(new Date()).toISOString();

/**
 * Changes boards (decisions 0784, 0786) from a connection of the bench's own, as a write of an evaluation
 * completed today (`today`: the server's next get-evaluations of the board reads today's rows again) or on
 * the first day of the page's window (`afresh`: it reads the whole window again).
 */
function boardChanges(databaseUrl: string) {
  const database = openDatabase(
    databaseUrl.startsWith('sqlite:')
      ? { kind: 'sqlite', file: databaseUrl.slice('sqlite:'.length) }
      : { kind: 'postgres', url: databaseUrl },
  );
  return {
    change: (boardId: number, when: 'today' | 'afresh') =>
      changeBoardDay(
        database.db,
        boardId,
        dayOf(when === 'today' ? Date.now() : Date.parse(boardViewStart())),
      ),
    close: () => database.close(),
  };
}

async function measure(dialect: 'sqlite' | 'postgres', databaseUrl: string, f: Fixture): Promise<Figures> {
  let server = await startServer(databaseUrl);
  const { client } = server;
  const { ownerCookie } = f;
  // Timed calls leave the answer's body in the client's worker (decision 0788); keepBody brings it here.
  const getEvaluations = (i: number, acceptEncoding?: string, keepBody = false) =>
    client.call(
      api.getEvaluations.path,
      { boardID: f.boards[i % f.boards.length]!.id, startDateTime: boardViewStart() },
      { cookie: ownerCookie, keepBody, ...(acceptEncoding ? { acceptEncoding } : {}) },
    );
  const page1 = { isEditing: true, quantity: 48, maxDateTime: f.maxDateTime };
  const pageN = { ...page1, ...f.page1000 };
  const search = (body: object, keepBody = false) =>
    client.call(api.searchEvaluations.path, body, { cookie: ownerCookie, keepBody });

  // Warm up: first compilations, caches.
  for (let i = 0; i < 60; i++) {
    expectOk(await getEvaluations(i), 'get-evaluations');
    expectOk(await search(i % 2 ? page1 : pageN), 'search-evaluations');
  }
  const sample = JSON.parse((await getEvaluations(0, undefined, true)).body.toString()) as {
    evaluations: unknown[];
  };
  say(`  get-evaluations answers ${sample.evaluations.length} evaluations for a board`);
  const pageCheck = JSON.parse((await search(pageN, true)).body.toString()) as {
    evaluations: { ID: number }[];
  };
  if (pageCheck.evaluations.length !== 48)
    throw new Error(`page ${PAGE} has ${pageCheck.evaluations.length} rows`);

  const getEvaluationsStats = await sequential(SAMPLES, (i) => timed(getEvaluations(i), 'get-evaluations'));
  const changes = boardChanges(databaseUrl);
  const getEvaluationsToday = await sequential(SAMPLES, async (i) => {
    await changes.change(f.boards[i % f.boards.length]!.id, 'today');
    return timed(getEvaluations(i), 'get-evaluations, changed today');
  });
  const getEvaluationsAfresh = await sequential(SAMPLES, async (i) => {
    await changes.change(f.boards[i % f.boards.length]!.id, 'afresh');
    return timed(getEvaluations(i), 'get-evaluations, afresh');
  });
  await changes.close();
  const compressedSample = await getEvaluations(0, COMPRESSED);
  expectOk(compressedSample, 'get-evaluations, compressed');
  const getEvaluationsCompressed = {
    ...(await sequential(SAMPLES, (i) =>
      timed(getEvaluations(i, COMPRESSED), 'get-evaluations, compressed'),
    )),
    bytes: compressedSample.bytes,
    plainBytes: (await getEvaluations(0)).bytes,
  };
  const searchPage1 = await sequential(SAMPLES, () => timed(search(page1), 'search page 1'));
  const searchPageN = await sequential(SAMPLES, () => timed(search(pageN), `search page ${PAGE}`));

  const {
    addEvaluation,
    paced: addResultsPaced,
    pacedInServer: addResultsPacedInServer,
    closed,
  } = await addResultsUnderLoad(server, f, true);
  const addResultsClosed = closed!;

  // Per-request overhead: get-boards through the app against bare Fastify and the driver, A B A B.
  const bare = await startBare(databaseUrl, f.orgId);
  const getBoards = await getBoardsSideBySide(client.inProcess, bare.client, ownerCookie, () =>
    os.loadavg().map((v) => Number(v.toFixed(2))),
  );
  await bare.stop();
  say(
    `  get-boards req/s, A B A B: bare ${getBoards.bare.map((v) => v.toFixed(0)).join(', ')}; app ${getBoards.app.map((v) => v.toFixed(0)).join(', ')} (${getBoards.ratio.toFixed(2)}x; load ${getBoards.loadBefore.join(' ')})`,
  );
  await server.stop();

  // The export in a fresh server process, so that its memory is the export's; then the same export again in
  // that process, whose peak shows whether anything stayed behind.
  server = await startServer(databaseUrl);
  const pid = server.child.pid!;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = rssOf(pid).rss;
  const exportOnce = async () => {
    const samples: { bytes: number; rss: number }[] = [];
    let bytes = 0;
    const timer = setInterval(() => samples.push({ bytes, rss: rssOf(pid).rss }), 25);
    const download = await server.client.download(
      api.getExcel.path,
      { isEditing: true, maxDateTime: f.maxDateTime, startDateTime: f.exportStart, timeZone: 'UTC' },
      ownerCookie,
      (received) => (bytes = received),
    );
    clearInterval(timer);
    samples.push({ bytes, rss: rssOf(pid).rss });
    if (download.status !== 200) throw new Error(`get-excel answered ${download.status}`);
    // A whole zip ends with its end-of-central-directory record.
    if (download.tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) < 0)
      throw new Error('get-excel: truncated file');
    // The largest RSS seen while each tenth of the file was sent.
    const tenths = Array.from({ length: 10 }, (_, t) =>
      Math.max(
        0,
        ...samples
          .filter((s) => s.bytes >= (download.bytes * t) / 10 && s.bytes <= (download.bytes * (t + 1)) / 10)
          .map((s) => s.rss),
      ),
    );
    return { download, tenths, peak: Math.max(...samples.map((s) => s.rss)) };
  };
  const first = await exportOnce();
  const again = await exportOnce();
  const hwm = rssOf(pid).hwm;
  await server.stop();
  const bareWriter = await bareExcel(
    databaseUrl,
    f.orgId,
    Date.parse(f.exportStart),
    Date.parse(f.maxDateTime),
  );
  say(`  bare exceljs writer: ${Math.round(bareWriter.rowsPerSecond).toLocaleString('en')} rows/s`);
  const { download, tenths } = first;
  const rssAt10 = tenths[0]!;
  const peakRss = Math.max(first.peak, ...tenths);
  const after10 = Math.max(...tenths.slice(1));

  return {
    database: dialect,
    getEvaluations: { ...getEvaluationsStats, rows: sample.evaluations.length },
    getEvaluationsToday,
    getEvaluationsAfresh,
    getEvaluationsCompressed,
    searchPage1,
    searchPageN,
    addEvaluation,
    addResultsPaced,
    addResultsPacedInServer,
    addResultsClosed,
    getBoards,
    bareExcel: bareWriter,
    excel: {
      evaluations: f.exportEvaluations,
      rows: f.exportRows,
      seconds: download.ms / 1000,
      rowsPerSecond: f.exportRows / (download.ms / 1000),
      megabytes: download.bytes / 1024 / 1024,
      rssBefore: before,
      rssAt10,
      peakRss,
      growth: after10 / rssAt10 - 1,
      tenths,
      secondPeak: again.peak,
      hwm,
    },
  };
}

function table(all: Figures[]) {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const rows: [string, string, (f: Figures) => string][] = [
    [
      'get-evaluations, the board view as the page asks it, board unchanged (answer kept): p95',
      '< 10 ms',
      (f) => `${ms(f.getEvaluations.p95)} (${f.getEvaluations.rows} rows)`,
    ],
    ['  p50 / p99', '', (f) => `${ms(f.getEvaluations.p50)} / ${ms(f.getEvaluations.p99)}`],
    [
      '  board changed today before each call (today read again): p95 / p50',
      '< 10 ms',
      (f) =>
        f.getEvaluationsToday ? `${ms(f.getEvaluationsToday.p95)} / ${ms(f.getEvaluationsToday.p50)}` : '',
    ],
    [
      '  board changed on its window’s first day before each call (read afresh): p95 / p50',
      '< 10 ms',
      (f) =>
        f.getEvaluationsAfresh ? `${ms(f.getEvaluationsAfresh.p95)} / ${ms(f.getEvaluationsAfresh.p50)}` : '',
    ],
    [
      '  as Chromium asks (Accept-Encoding: gzip, deflate, br, zstd): p95 / p50 (bytes sent)',
      '',
      (f) => {
        const c = f.getEvaluationsCompressed;
        if (!c) return '';
        const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
        return `${ms(c.p95)} / ${ms(c.p50)} (${kb(c.bytes)} of ${kb(c.plainBytes)})`;
      },
    ],
    ['search-evaluations page 1 of 48: p95', '< 30 ms', (f) => ms(f.searchPage1.p95)],
    [
      `search-evaluations page ${PAGE.toLocaleString('en')} of 48: p95`,
      '< 30 ms',
      (f) => ms(f.searchPageN.p95),
    ],
    [
      `  page ${PAGE.toLocaleString('en')} / page 1 (p95)`,
      '< 2x',
      (f) => `${(f.searchPageN.p95 / f.searchPage1.p95).toFixed(2)}x`,
    ],
    [
      `add-results, 10 items, ${CONCURRENCY} concurrent evaluators (each every ~${THINK_MS / 1000} s): p95`,
      '< 10 ms',
      (f) => `${ms(f.addResultsPaced.p95)} (${f.addResultsPaced.perSecond.toFixed(0)}/s)`,
    ],
    ['  p50 / p99', '', (f) => `${ms(f.addResultsPaced.p50)} / ${ms(f.addResultsPaced.p99)}`],
    [
      '  timed in the server (/metrics): share within 5 / 10 / 25 ms',
      '',
      (f) => f.addResultsPacedInServer.under.map((u) => `${(u.share * 100).toFixed(1)}%`).join(' / '),
    ],
    [
      `  event loop held up meanwhile (beyond the ${LOOP_MONITOR_TICK_MS} ms tick), max (p99): server / client`,
      '',
      (f) => {
        const t = f.addResultsPacedInServer;
        return `${ms(t.loopMaxMs)} (${ms(t.loopP99Ms)}) / ${ms(t.clientLoopMaxMs)} (${ms(t.clientLoopP99Ms)})`;
      },
    ],
    [
      '  the server’s major collections meanwhile',
      '',
      (f) => `${f.addResultsPacedInServer.majorGc.count} (${ms(f.addResultsPacedInServer.majorGc.ms)})`,
    ],
    [
      `add-results, ${CONCURRENCY} requests always in flight (saturation): p95 / throughput (per core)`,
      '',
      (f) =>
        `${ms(f.addResultsClosed.p95)} / ${f.addResultsClosed.perSecond.toFixed(0)}/s (${(f.addResultsClosed.perSecond / os.cpus().length).toFixed(0)}/s per core)`,
    ],
    [
      `add-evaluation, ${CONCURRENCY} in flight (saturation): p95 / throughput`,
      '',
      (f) => `${ms(f.addEvaluation.p95)} / ${f.addEvaluation.perSecond.toFixed(0)}/s`,
    ],
    [
      'get-boards req/s, bare Fastify + driver (A rounds)',
      '',
      (f) => f.getBoards.bare.map((v) => v.toFixed(0)).join(', '),
    ],
    ['get-boards req/s, the app (B rounds)', '', (f) => f.getBoards.app.map((v) => v.toFixed(0)).join(', ')],
    [
      'get-boards: app / bare',
      '>= 0.6x',
      (f) => `${f.getBoards.ratio.toFixed(2)}x${f.getBoards.sameAnswer ? '' : ' (answers differ!)'}`,
    ],
    [
      '  load average before / after',
      '',
      (f) => `${f.getBoards.loadBefore[0]} / ${f.getBoards.loadAfter[0]}`,
    ],
    [
      'get-excel: evaluations / rows',
      '',
      (f) => `${f.excel.evaluations.toLocaleString('en')} / ${f.excel.rows.toLocaleString('en')}`,
    ],
    [
      'get-excel: rows per second',
      '>= 25,000',
      (f) =>
        `${Math.round(f.excel.rowsPerSecond).toLocaleString('en')} (${f.excel.seconds.toFixed(1)} s, ${f.excel.megabytes.toFixed(1)} MB)`,
    ],
    [
      'bare exceljs writer, same rows: rows per second',
      '',
      (f) =>
        `${Math.round(f.bareExcel.rowsPerSecond).toLocaleString('en')} (${f.bareExcel.rows.toLocaleString('en')} rows)`,
    ],
    [
      'get-excel / bare writer',
      '>= 0.7x',
      (f) => `${(f.excel.rowsPerSecond / f.bareExcel.rowsPerSecond).toFixed(2)}x`,
    ],
    [
      'get-excel: peak server RSS',
      '< 300 MB',
      (f) => `${f.excel.peakRss.toFixed(0)} MB (idle ${f.excel.rssBefore.toFixed(0)} MB)`,
    ],
    [
      'get-excel: RSS growth, 10% → 100% of the rows',
      '< 20%',
      (f) => `${(f.excel.growth * 100).toFixed(1)}% (${f.excel.rssAt10.toFixed(0)} MB at 10%)`,
    ],
    [
      '  RSS peak in each tenth of the file (MB)',
      '',
      (f) => f.excel.tenths.map((v) => v.toFixed(0)).join(' '),
    ],
    ['  the same export again, same process: peak RSS', '', (f) => `${f.excel.secondPeak.toFixed(0)} MB`],
  ];
  const header = ['measure', 'target', ...all.map((f) => f.database)];
  const lines = [
    header,
    header.map(() => '---'),
    ...rows.map(([name, target, value]) => [name, target, ...all.map(value)]),
  ];
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

async function main() {
  mkdirSync(resultsDir, { recursive: true });
  // The compiled server is what `npm start` runs; BENCH_TSX=1 measures it under tsx instead.
  if (process.env.BENCH_TSX !== '1' && !serverEntry) serverEntry = compileServer();
  say(
    `Checkboard benchmark: ${EVALUATIONS.toLocaleString('en')} evaluations, export of ${EXPORT_EVALUATIONS.toLocaleString('en')}, ` +
      `${CONCURRENCY} concurrent evaluators, ${SAMPLES} samples, on ${DATABASES.join(' and ')} (${os.cpus().length} CPUs, node ${process.version}, ` +
      `server ${serverEntry ? `compiled: ${path.relative(process.cwd(), serverEntry)}` : 'under tsx'})`,
  );
  const all: Figures[] = [];
  for (const dialect of DATABASES) {
    say(`\n# ${dialect}`);
    const prepared = await prepare(dialect);
    try {
      const f = await fixture(prepared.databaseUrl);
      const plans = await explainHotQueries(prepared.location, f);
      const planFile = path.join(resultsDir, `explain-${dialect}-${EVALUATIONS}.txt`);
      writeFileSync(planFile, `${plans}\n`);
      say(`  query plans: ${path.relative(process.cwd(), planFile)}`);
      if (process.env.BENCH_PRINT_PLANS === '1') say(plans);
      const figures = await measure(dialect, prepared.databaseUrl, f);
      all.push(figures);
      say(table([figures]));
    } finally {
      await prepared.drop();
    }
  }
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
  writeFileSync(
    path.join(resultsDir, `bench-${EVALUATIONS}-${stamp}.json`),
    JSON.stringify({ plan, all }, null, 2),
  );
  say(
    `\n## Figures (${EVALUATIONS.toLocaleString('en')} evaluations, ${(EVALUATIONS * ITEMS_PER_CARD).toLocaleString('en')} results)\n`,
  );
  say(table(all));
}

/*
 * Scale shape (issue 15, decision 0625; BENCH_SCALE_SHAPE=1, `npm run bench:scale`): per database, seed
 * BENCH_SCALE_FROM evaluations, copy that database and grow the copy to BENCH_SCALE_TO (bench/seed.ts
 * `grow`: more evaluations over the same two years, or with BENCH_SCALE_GROWTH=longer in the years before
 * them), then measure the board view, search, add-results and get-report calls of both side by side, a
 * server on each, in rounds A B B A… (decision 0787), and print both p95s and their ratio (target: at most
 * 1.5x).
 */
const SCALE_FROM = numberSetting('BENCH_SCALE_FROM', 100_000);
const SCALE_TO = numberSetting('BENCH_SCALE_TO', 1_000_000);
/** BENCH_SCALE_GROWTH: `busier` (the default: the same two years, busier days) or `longer` (earlier years). */
const GROWTH = growthSetting(process.env.BENCH_SCALE_GROWTH);

function growthSetting(value: string | undefined): Growth {
  if (value === undefined || value === '' || value === 'busier') return 'busier';
  if (value === 'longer') return 'longer';
  throw new Error(`BENCH_SCALE_GROWTH: busier or longer, not ${value}`);
}
const SHAPE_TARGET = 1.5;
/** Rounds of the side-by-side measurement (decision 0787): A B B A…, SHAPE_SAMPLES split among them. */
const SCALE_ROUNDS = numberSetting('BENCH_SCALE_ROUNDS', 4);
/**
 * Samples of each call at each size (BENCH_SAMPLES, default 1,200 here against `npm run bench`'s 300): a
 * ratio of two p95s carries the sampling error of both, and a p95 of 300 is the 15th slowest, moved by
 * a single hiccup of the host (decision 0787).
 */
const SHAPE_SAMPLES = numberSetting('BENCH_SAMPLES', 1_200);
const ZONE = process.env.BENCH_TIME_ZONE || 'Europe/London';

interface ShapeFigures {
  evaluations: number;
  getEvaluations: Stats & { rows: number };
  getEvaluationsToday: Stats;
  getEvaluationsAfresh: Stats;
  /** Answers kept, as Chromium asks (its Accept-Encoding): compressed once a revision (decision 0785). */
  getEvaluationsCompressed: Stats;
  searchPage1: Stats;
  searchPageN: Stats;
  addResults: Stats;
  reportDays: Stats;
  reportItems: Stats;
  reportItemDays: Stats;
  load: [before: number, after: number];
}

const SHAPE_CALLS: [label: string, pick: (f: ShapeFigures) => Stats][] = [
  ['get-evaluations (board view), boards in turn, answers kept', (f) => f.getEvaluations],
  ['get-evaluations, each board changed today before its call', (f) => f.getEvaluationsToday],
  [
    'get-evaluations, each board changed on its window’s first day (read afresh)',
    (f) => f.getEvaluationsAfresh,
  ],
  ['get-evaluations, answers kept, as Chromium asks (compressed)', (f) => f.getEvaluationsCompressed],
  ['search-evaluations, page 1 of 48', (f) => f.searchPage1],
  ['search-evaluations, deep page of 48', (f) => f.searchPageN],
  ['add-results, 10 items, evaluators at work', (f) => f.addResults],
  ['get-report, TimeSeries by day, 730 days, all boards', (f) => f.reportDays],
  ['get-report, one card’s items, 365 days, cards in turn', (f) => f.reportItems],
  ['get-report, one item by day, 365 days, cards in turn', (f) => f.reportItemDays],
];

/** The measured calls of the scale shape: ShapeFigures' fields that hold a call's latencies. */
type ShapeCall = Exclude<keyof ShapeFigures, 'evaluations' | 'load'>;

/** One database of the scale shape's pair, its server, and the latencies taken from it so far. */
interface ShapeSide {
  evaluations: number;
  f: Fixture;
  server: Server;
  changes: ReturnType<typeof boardChanges>;
  samples: Map<ShapeCall, number[]>;
  /** The next call's number: boards and cards are taken in turn across the rounds. */
  next: number;
  /** Evaluations get-evaluations answered a board, on average. */
  rows: number;
}

/** The calls of one side, as the scale shape makes them. */
function shapeCalls(side: ShapeSide) {
  const { client } = side.server;
  const { f } = side;
  const cookie = { cookie: f.ownerCookie };
  // Timed calls leave the answer's body in the client's worker (decision 0788); keepBody brings it here.
  const getEvaluations = (i: number, acceptEncoding?: string, keepBody = false) =>
    client.call(
      api.getEvaluations.path,
      { boardID: f.boards[i % f.boards.length]!.id, startDateTime: boardViewStart() },
      { ...cookie, keepBody, ...(acceptEncoding ? { acceptEncoding } : {}) },
    );
  const page1 = { isEditing: true, quantity: 48, maxDateTime: f.maxDateTime };
  const pageN = { ...page1, ...f.page1000 };
  const search = (body: object, keepBody = false) =>
    client.call(api.searchEvaluations.path, body, { ...cookie, keepBody });
  const cardIds = f.boards.flatMap((b) => b.cardIds);
  const report = (setting: object) => client.call(api.getReport.path, { setting, timeZone: ZONE }, cookie);
  const days = graph({});
  const items = (i: number) =>
    graph({
      card_id: cardIds[i % cardIds.length]!,
      start_number: 365,
      time_division: 'Custom Interval',
      type: 'Bar',
    });
  // A Pass/Fail item (position 2) of each card in turn, by local day.
  const itemDays = (i: number) =>
    graph({
      card_item_id: f.itemsOf.get(cardIds[i % cardIds.length]!)!.find((item) => item.position === 2)!.id,
      start_number: 365,
    });
  return { getEvaluations, page1, pageN, search, report, days, items, itemDays };
}

/** Warms a side up (first compilations, caches), checks its deep page, and counts the board view's rows. */
async function warmUp(side: ShapeSide) {
  const { getEvaluations, page1, pageN, search, report, days, items, itemDays } = shapeCalls(side);
  for (let i = 0; i < 60; i++) {
    expectOk(await getEvaluations(i), 'get-evaluations');
    expectOk(await search(i % 2 ? page1 : pageN), 'search-evaluations');
    expectOk(await report(i % 2 ? days : items(i)), 'get-report');
    expectOk(await report(itemDays(i)), 'get-report');
  }
  const deep = JSON.parse((await search(pageN, true)).body.toString()) as { evaluations: unknown[] };
  if (deep.evaluations.length !== 48) throw new Error(`the deep page has ${deep.evaluations.length} rows`);
  let rows = 0;
  const { boards } = side.f;
  for (let i = 0; i < boards.length; i++)
    rows += (
      JSON.parse((await getEvaluations(i, undefined, true)).body.toString()) as { evaluations: unknown[] }
    ).evaluations.length;
  side.rows = Math.round(rows / boards.length);
}

/**
 * One round of a side: `perCall` samples of each call, one request at a time, then add-results of the
 * evaluators at work, `perEvaluator` each. Each board is asked once before the kept answers are timed (the
 * round before wrote to them), and once as Chromium asks before its compressed answers are.
 */
async function shapeRound(side: ShapeSide, perCall: number, perEvaluator: number) {
  const { getEvaluations, page1, pageN, search, report, days, items, itemDays } = shapeCalls(side);
  const { boards } = side.f;
  const take = async (call: ShapeCall, task: (i: number) => Promise<number>) => {
    const into = side.samples.get(call) ?? [];
    side.samples.set(call, into);
    await sequential(perCall, () => task(side.next++), into);
  };
  for (let i = 0; i < boards.length; i++) expectOk(await getEvaluations(i), 'get-evaluations');
  await take('getEvaluations', (i) => timed(getEvaluations(i), 'get-evaluations'));
  await take('getEvaluationsToday', async (i) => {
    await side.changes.change(boards[i % boards.length]!.id, 'today');
    return timed(getEvaluations(i), 'get-evaluations, changed today');
  });
  await take('getEvaluationsAfresh', async (i) => {
    await side.changes.change(boards[i % boards.length]!.id, 'afresh');
    return timed(getEvaluations(i), 'get-evaluations, afresh');
  });
  for (let i = 0; i < boards.length; i++) expectOk(await getEvaluations(i, COMPRESSED), 'get-evaluations');
  await take('getEvaluationsCompressed', (i) =>
    timed(getEvaluations(i, COMPRESSED), 'get-evaluations, compressed'),
  );
  await take('searchPage1', () => timed(search(page1), 'search page 1'));
  await take('searchPageN', () => timed(search(pageN), 'search deep page'));
  await take('reportDays', () => timed(report(days), 'get-report'));
  await take('reportItems', (i) => timed(report(items(i)), 'get-report'));
  await take('reportItemDays', (i) => timed(report(itemDays(i)), 'get-report'));
  const into = side.samples.get('addResults') ?? [];
  side.samples.set('addResults', into);
  await addResultsUnderLoad(side.server, side.f, false, { perEvaluator, pacedInto: into });
}

/**
 * Both sizes measured side by side (decision 0787): a server on each database, both running, and the same
 * calls made of each in rounds, in the order A B B A A B…, so that whatever the host does meanwhile (other
 * work on it, the kernel writing back, a slower minute) falls on both sizes alike. Each figure pools its
 * rounds' samples: SHAPE_SAMPLES a call, add-results BENCH_RESULTS_PER_EVALUATOR an evaluator, in all.
 */
async function measureShapes(
  sizes: { databaseUrl: string; f: Fixture; evaluations: number }[],
): Promise<ShapeFigures[]> {
  const loadBefore = os.loadavg()[0]!;
  const sides: ShapeSide[] = [];
  try {
    for (const { databaseUrl, f, evaluations } of sizes)
      sides.push({
        evaluations,
        f,
        server: await startServer(databaseUrl),
        changes: boardChanges(databaseUrl),
        samples: new Map(),
        next: 0,
        rows: 0,
      });
    for (const side of sides) await warmUp(side);
    const perCall = Math.ceil(SHAPE_SAMPLES / SCALE_ROUNDS);
    const perEvaluator = Math.max(1, Math.ceil(PER_EVALUATOR / SCALE_ROUNDS));
    for (let round = 0; round < SCALE_ROUNDS; round++) {
      const order = round % 2 ? [...sides].reverse() : sides;
      for (const side of order) {
        const started = performance.now();
        await shapeRound(side, perCall, perEvaluator);
        say(
          `  round ${round + 1} of ${SCALE_ROUNDS}, ${side.evaluations.toLocaleString('en')}: ${secondsSince(started)} (load average ${os.loadavg()[0]!.toFixed(1)})`,
        );
      }
    }
    const load: [number, number] = [loadBefore, os.loadavg()[0]!];
    return sides.map((side) => {
      const of = (call: ShapeCall) => stats(side.samples.get(call) ?? [], NaN);
      const figures: ShapeFigures = {
        evaluations: side.evaluations,
        getEvaluations: { ...of('getEvaluations'), rows: side.rows },
        getEvaluationsToday: of('getEvaluationsToday'),
        getEvaluationsAfresh: of('getEvaluationsAfresh'),
        getEvaluationsCompressed: of('getEvaluationsCompressed'),
        searchPage1: of('searchPage1'),
        searchPageN: of('searchPageN'),
        addResults: of('addResults'),
        reportDays: of('reportDays'),
        reportItems: of('reportItems'),
        reportItemDays: of('reportItemDays'),
        load,
      };
      say(`\n  at ${side.evaluations.toLocaleString('en')} evaluations:`);
      for (const [label, pick] of SHAPE_CALLS)
        say(`  ${label}: p95 ${pick(figures).p95.toFixed(1)} ms (p50 ${pick(figures).p50.toFixed(1)} ms)`);
      say(`  get-evaluations answers ${side.rows} evaluations a board on average`);
      return figures;
    });
  } finally {
    for (const side of sides) {
      await side.changes.close();
      await side.server.stop();
    }
  }
}

/**
 * A new database of the scale shape's own (never reused; dropped afterwards unless BENCH_KEEP=1), named by
 * `label`: empty, or with `copyOf` a copy of that one (closed, its pages written out: writeOut).
 */
async function freshDatabase(
  dialect: 'sqlite' | 'postgres',
  label: string,
  copyOf?: { databaseUrl: string },
): Promise<{ databaseUrl: string; open(): Database; bulk(): Promise<Bulk>; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const file =
      (process.env.BENCH_SQLITE_FILE ? `${process.env.BENCH_SQLITE_FILE}-${label}` : '') ||
      path.join(os.tmpdir(), `checkboard-scale-${label}.sqlite`);
    const remove = () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    };
    remove();
    if (copyOf) {
      copyFileSync(copyOf.databaseUrl.slice('sqlite:'.length), file);
      const fd = openSync(file, 'r+');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    return {
      databaseUrl: `sqlite:${file}`,
      open: () => openDatabase({ kind: 'sqlite', file }),
      bulk: async () => sqliteBulk(file),
      drop: async () => (process.env.BENCH_KEEP === '1' ? undefined : remove()),
    };
  }
  const name = `checkboard_scale_${randomBytes(4).toString('hex')}_${label.replaceAll('-', '_')}`;
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  await adminQuery(
    copyOf
      ? `create database ${name} template ${new URL(copyOf.databaseUrl).pathname.slice(1)}`
      : `create database ${name}`,
  );
  return {
    databaseUrl: url.toString(),
    open: () => openDatabase({ kind: 'postgres', url: url.toString() }),
    bulk: () => postgresBulk(url.toString()),
    drop: async () => {
      if (process.env.BENCH_KEEP !== '1') await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

async function scaleShapeOf(dialect: 'sqlite' | 'postgres'): Promise<[ShapeFigures, ShapeFigures]> {
  const from: SeedPlan = {
    ...plan,
    evaluations: SCALE_FROM,
    otherEvaluations: Math.round(SCALE_FROM / 5),
    now: Date.now(),
  };
  const dropping: { drop(): Promise<void> }[] = [];
  try {
    const small = await freshDatabase(dialect, String(SCALE_FROM));
    dropping.push(small);
    const database = small.open();
    await migrateToLatest(database.db, dialect);
    await database.close();
    const analyse = async (bulk: Bulk) => {
      const started = performance.now();
      await bulk.run(dialect === 'postgres' ? 'vacuum analyze' : 'analyze');
      say(`  ${dialect === 'postgres' ? 'vacuum analyze' : 'analyze'}: ${secondsSince(started)}`);
      await writeOut(bulk);
    };
    // The deep page is the same page number at both sizes, so that only the table's size changes.
    const page = Math.max(2, Math.min(1000, Math.floor(SCALE_FROM / 48)));
    const sizes = { page, exportEvaluations: Math.min(100_000, Math.floor(SCALE_FROM / 10)), now: from.now };

    let started = performance.now();
    say(
      `  seeding ${SCALE_FROM.toLocaleString('en')} evaluations (+${from.otherEvaluations.toLocaleString('en')} in 20 other organisations)`,
    );
    let bulk = await small.bulk();
    await seed(bulk, from, (line) => say(line));
    await analyse(bulk);
    await bulk.close();
    say(`  seeded in ${secondsSince(started)}`);

    started = performance.now();
    const large = await freshDatabase(dialect, `${SCALE_FROM}-${SCALE_TO}`, small);
    dropping.push(large);
    say(
      `  copied in ${secondsSince(started)}; growing the copy to ${SCALE_TO.toLocaleString('en')} evaluations (${GROWTH === 'busier' ? 'busier: over the same two years' : 'longer: in the years before'})`,
    );
    started = performance.now();
    bulk = await large.bulk();
    const grown = await grow(
      bulk,
      from,
      { evaluations: SCALE_TO, otherEvaluations: Math.round(SCALE_TO / 5) },
      (line) => say(line),
      GROWTH,
    );
    await analyse(bulk);
    await bulk.close();
    say(
      `  added ${grown.added.toLocaleString('en')} evaluations (${grown.results.toLocaleString('en')} results in all) in ${secondsSince(started)}; measuring both side by side, ${SCALE_ROUNDS} rounds`,
    );
    const [before, after] = await measureShapes([
      { databaseUrl: small.databaseUrl, f: await fixture(small.databaseUrl, sizes), evaluations: SCALE_FROM },
      { databaseUrl: large.databaseUrl, f: await fixture(large.databaseUrl, sizes), evaluations: SCALE_TO },
    ]);
    return [before!, after!];
  } finally {
    for (const database of dropping) await database.drop();
  }
}

function shapeTable(all: { database: string; before: ShapeFigures; after: ShapeFigures }[]): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const header = [
    'call: p95 (p50)',
    ...all.flatMap(({ database, before, after }) => [
      `${database} at ${before.evaluations.toLocaleString('en')}`,
      `${database} at ${after.evaluations.toLocaleString('en')}`,
      `${database} ratio (≤ ${SHAPE_TARGET}x)`,
    ]),
  ];
  const lines = [header, header.map(() => '---')];
  for (const [label, pick] of SHAPE_CALLS)
    lines.push([
      label,
      ...all.flatMap(({ before, after }) => {
        const ratio = pick(after).p95 / pick(before).p95;
        return [
          `${ms(pick(before).p95)} (${ms(pick(before).p50)})`,
          `${ms(pick(after).p95)} (${ms(pick(after).p50)})`,
          `${ratio.toFixed(2)}x ${ratio <= SHAPE_TARGET ? 'met' : 'NOT MET'}`,
        ];
      }),
    ]);
  lines.push([
    'get-evaluations: evaluations answered a board',
    ...all.flatMap(({ before, after }) => [
      String(before.getEvaluations.rows),
      String(after.getEvaluations.rows),
      `${(after.getEvaluations.rows / Math.max(1, before.getEvaluations.rows)).toFixed(2)}x`,
    ]),
  ]);
  lines.push([
    'load average (1 min) before / after',
    ...all.flatMap(({ before, after }) => [
      before.load.map((v) => v.toFixed(1)).join(' / '),
      after.load.map((v) => v.toFixed(1)).join(' / '),
      '',
    ]),
  ]);
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

async function scaleShape() {
  mkdirSync(resultsDir, { recursive: true });
  if (SCALE_TO <= SCALE_FROM) throw new Error('BENCH_SCALE_TO must be larger than BENCH_SCALE_FROM');
  if (process.env.BENCH_TSX !== '1' && !serverEntry) serverEntry = compileServer();
  say(
    `Checkboard scale shape: ${SCALE_FROM.toLocaleString('en')} then ${SCALE_TO.toLocaleString('en')} evaluations in the same database (growth: ${GROWTH}), ` +
      `${SHAPE_SAMPLES} samples, ${CONCURRENCY} evaluators, on ${DATABASES.join(' and ')} (${os.cpus().length} CPUs, node ${process.version}, load average ${os
        .loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')})`,
  );
  const all: { database: string; before: ShapeFigures; after: ShapeFigures }[] = [];
  for (const dialect of DATABASES) {
    say(`\n# ${dialect}`);
    const [before, after] = await scaleShapeOf(dialect);
    all.push({ database: dialect, before, after });
    say(shapeTable([all.at(-1)!]));
  }
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
  writeFileSync(
    path.join(resultsDir, `scale-${GROWTH}-${SCALE_FROM}-${SCALE_TO}-${stamp}.json`),
    JSON.stringify(all, null, 2),
  );
  say(
    `\n## Scale shape: ${SCALE_FROM.toLocaleString('en')} → ${SCALE_TO.toLocaleString('en')} evaluations (${GROWTH})\n`,
  );
  say(shapeTable(all));
}

await (process.env.BENCH_SCALE_SHAPE === '1' ? scaleShape() : main());
