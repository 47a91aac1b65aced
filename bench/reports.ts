/**
 * `npm run bench:reports`: issue 9's get-report targets at full scale, on SQLite and on PostgreSQL
 * (bench/README.md, "Reports").
 *
 * For each database: create it, migrate it, seed the evaluations benchmark's data set (bench/seed.ts: one
 * organisation with a million evaluations over two years, 50 boards, 500 cards, plus 20 other
 * organisations), run the real server in a child process (bench/server.ts) and time get-report over HTTP,
 * one request at a time: a TimeSeries by day over 730 days of all boards (target p95 < 150 ms) and the
 * items of one card over the last 365 days (CustomIntervalItems, target p95 < 100 ms), plus figures
 * without targets: one board by week over two years, the boards compared over a year, and a dashboard of
 * 24 graphs requested at once. Prints a table; the JSON goes to bench/results/.
 */
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type CompiledQuery as Compiled,
} from 'kysely';
import pg from 'pg';
import { api, type DashboardSettingInput } from '../common/api/index.ts';
import type { CallContext, UserActor } from '../server/context.ts';
import { insertSession, SESSION_COOKIE } from '../server/auth/sessions.ts';
import { openDatabase, type Database } from '../server/db/index.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import type { DB } from '../server/db/schema.ts';
import { getReport } from '../server/modules/analytics/report.ts';
import { graph } from './graph.ts';
import { Client, sequential, stats, type Stats } from './http.ts';
import { postgresBulk, seed, sqliteBulk, type Bulk, type SeedPlan } from './seed.ts';
import { EVALUATIONS, numberSetting, OTHER_EVALUATIONS, resultsDir } from './settings.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const SAMPLES = numberSetting('BENCH_REPORT_SAMPLES', 200);
const DASHBOARDS = numberSetting('BENCH_DASHBOARD_SAMPLES', 20);
const ZONE = process.env.BENCH_TIME_ZONE || 'Europe/London';
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as (
  'sqlite' | 'postgres'
)[];
const PG_URL =
  process.env.BENCH_PG_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const KEEP = process.env.BENCH_KEEP === '1';
const say = (line: string) => console.log(line);
const secondsSince = (start: number) => `${((performance.now() - start) / 1000).toFixed(1)} s`;

const plan: SeedPlan = {
  evaluations: EVALUATIONS,
  otherOrganisations: 20,
  otherEvaluations: OTHER_EVALUATIONS,
  boards: 50,
  cardsPerBoard: 10,
  evaluators: 100,
  now: Date.now(),
};

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

interface Prepared {
  database: Database;
  url: string;
  drop(): Promise<void>;
}

async function seedInto(database: Database, bulk: Bulk) {
  const started = performance.now();
  say(
    `  seeding ${EVALUATIONS.toLocaleString('en')} evaluations (+${OTHER_EVALUATIONS.toLocaleString('en')} in 20 other organisations)`,
  );
  await seed(bulk, plan, (line) => say(line));
  await bulk.run(bulk.dialect === 'postgres' ? 'vacuum analyze' : 'analyze');
  say(`  seeded and analysed in ${secondsSince(started)}`);
  const counts = await database.db
    .selectFrom('evaluation_counts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  say(`  evaluation_counts: ${Number(counts.n).toLocaleString('en')} rows`);
}

async function prepare(dialect: 'sqlite' | 'postgres'): Promise<Prepared> {
  if (dialect === 'sqlite') {
    const file =
      process.env.BENCH_SQLITE_FILE || path.join(os.tmpdir(), `checkboard-reports-${EVALUATIONS}.sqlite`);
    const remove = () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    };
    remove();
    const database = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(database.db, 'sqlite');
    const bulk = sqliteBulk(file);
    await seedInto(database, bulk);
    await bulk.run('pragma wal_checkpoint(truncate)');
    await bulk.close();
    return { database, url: `sqlite:${file}`, drop: async () => (KEEP ? undefined : remove()) };
  }
  const name = `checkboard_reports_${randomBytes(4).toString('hex')}`;
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  await adminQuery(`create database ${name}`);
  const database = openDatabase({ kind: 'postgres', url: url.toString() });
  await migrateToLatest(database.db, 'postgres');
  const bulk = await postgresBulk(url.toString());
  await seedInto(database, bulk);
  await bulk.close();
  return {
    database,
    url: url.toString(),
    drop: async () => {
      if (!KEEP) await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

interface Fixture {
  orgId: number;
  cookie: string;
  boardIds: number[];
  cardIds: number[];
}

async function fixture(database: Database): Promise<Fixture> {
  const { db } = database;
  const org = await db
    .selectFrom('organizations')
    .select('id')
    .where('name', '=', 'Bench Main')
    .executeTakeFirstOrThrow();
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('org_id', '=', org.id)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  // A session that outlasts the run (the benchmark's requests keep it fresh anyway).
  const { token } = await insertSession(db, { id: owner.id, orgId: org.id }, Date.now(), 12 * 60 * 60_000);
  const boards = await db
    .selectFrom('boards')
    .select('id')
    .where('org_id', '=', org.id)
    .orderBy('id')
    .execute();
  const cards = await db
    .selectFrom('cards')
    .select('id')
    .where('org_id', '=', org.id)
    .orderBy('id')
    .execute();
  return {
    orgId: org.id,
    cookie: `${SESSION_COOKIE}=${token}`,
    boardIds: boards.map((b) => b.id),
    cardIds: cards.map((c) => c.id),
  };
}

async function startServer(url: string): Promise<{ client: Client; stop(): Promise<void> }> {
  const child = fork(path.join(here, 'server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: url,
      APP_URL: 'http://127.0.0.1',
      SESSION_SECRET: `bench-${randomUUID()}-secret-of-enough-length`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the benchmark server exited (${code}) before listening`)));
  });
  const client = new Client(port, 32);
  return {
    client,
    stop: async () => {
      client.close();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The plans of the two targets' queries, exactly as get-report builds them: the service runs against a
 * Kysely that records its queries, and each is explained (EXPLAIN QUERY PLAN on SQLite, EXPLAIN (ANALYZE,
 * BUFFERS) on PostgreSQL).
 */
async function explainReports(dialect: 'sqlite' | 'postgres', url: string, f: Fixture): Promise<string> {
  const recorded: { label: string; query: Compiled }[] = [];
  let label = '';
  const log = (event: { level: string; query: Compiled }) => {
    if (event.level === 'query') recorded.push({ label, query: event.query });
  };
  const db =
    dialect === 'sqlite'
      ? new Kysely<DB>({
          dialect: new SqliteDialect({ database: new SQLite(url.slice('sqlite:'.length)) }),
          log,
        })
      : new Kysely<DB>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
          log,
        });
  const ctx = {
    db,
    dialect,
    actor: { orgId: f.orgId },
    now: Date.now(),
  } as unknown as CallContext<UserActor>;
  label = 'TimeSeries Days 730, all boards';
  await getReport(ctx, graph({}), ZONE);
  label = 'CustomIntervalItems, one card, 365 days';
  await getReport(
    ctx,
    graph({ card_id: f.cardIds[0]!, start_number: 365, time_division: 'Custom Interval' }),
    ZONE,
  );
  const lines: string[] = [];
  let last = '';
  for (const { label: name, query } of recorded) {
    const verb = query.sql.trim().split(/\s/)[0]!.toLowerCase();
    if (verb !== 'select' && verb !== 'with') continue;
    if (name !== last) lines.push('', `## ${name}`);
    last = name;
    lines.push(
      '',
      query.sql
        .replace(/\s+/g, ' ')
        .replace(
          /values (\(\d+, \d+, \d+\), ){3,}\(\d+, \d+, \d+\)/,
          (list) => `values (… ${list.split('(').length - 1} buckets)`,
        ),
    );
    if (dialect === 'sqlite') {
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      for (const row of plan.rows) lines.push(`  ${row.detail}`);
    } else {
      const plan = await db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain (analyze, buffers, costs off) ${query.sql}`, [...query.parameters]),
      );
      // The bucket edges, as one array parameter, are shortened.
      for (const row of plan.rows)
        lines.push(
          `  ${row['QUERY PLAN'].replace(/'\{[\d,]{80,}\}'/g, (edges) => `'{… ${edges.split(',').length} edges}'`)}`,
        );
    }
  }
  await db.destroy();
  return lines.join('\n');
}

interface Figures {
  database: string;
  daysAllBoards: Stats & { rows: number; evaluations: number };
  itemsOfCard: Stats & { rows: number; answers: number };
  weeksOneBoard: Stats;
  boardsOverYear: Stats;
  dashboard24: Stats;
}

async function measure(dialect: string, url: string, f: Fixture): Promise<Figures> {
  const server = await startServer(url);
  const { client } = server;
  const report = async (setting: DashboardSettingInput) => {
    const answer = await client.call(api.getReport.path, { setting, timeZone: ZONE }, { cookie: f.cookie });
    if (answer.status !== 200)
      throw new Error(`get-report answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
    return answer;
  };
  const body = async (setting: DashboardSettingInput) =>
    (
      JSON.parse((await report(setting)).body.toString()) as {
        report: { rows: { passed: number; failed: number; na: number }[] };
      }
    ).report.rows;
  const total = (rows: { passed: number; failed: number; na: number }[]) =>
    rows.reduce((sum, r) => sum + r.passed + r.failed + r.na, 0);

  const days = graph({});
  const items = (i: number) =>
    graph({
      card_id: f.cardIds[i % f.cardIds.length]!,
      start_number: 365,
      time_division: 'Custom Interval',
      type: 'Bar',
    });
  const weeks = (i: number) =>
    graph({
      board_id: f.boardIds[i % f.boardIds.length]!,
      start_number: 104,
      start_duration: 'Weeks',
      time_division: 'Weeks',
    });
  const boards = graph({
    start_number: 12,
    start_duration: 'Months',
    time_division: 'Custom Interval',
    type: 'Bar',
  });
  const dashboard = Array.from(
    { length: 24 },
    (_, i) =>
      [days, items(i), weeks(i), boards, graph({ board_id: f.boardIds[i]!, card_id: -1, start_number: 90 })][
        i % 5
      ]!,
  );

  // Warm up: compilations, caches, and the figures' sanity.
  for (let i = 0; i < 20; i++) {
    await report(days);
    await report(items(i));
  }
  const dayRows = await body(days);
  const itemRows = await body(items(0));
  say(`  TimeSeries Days 730: ${dayRows.length} buckets, ${total(dayRows).toLocaleString('en')} evaluations`);
  say(
    `  CustomIntervalItems, one card, 365 days: ${itemRows.length} items, ${total(itemRows).toLocaleString('en')} answers`,
  );

  const timed = (setting: DashboardSettingInput) => report(setting).then((a) => a.ms);
  const daysAllBoards = await sequential(SAMPLES, () => timed(days));
  const itemsOfCard = await sequential(SAMPLES, (i) => timed(items(i)));
  const weeksOneBoard = await sequential(SAMPLES, (i) => timed(weeks(i)));
  const boardsOverYear = await sequential(SAMPLES, () => timed(boards));
  // A dashboard opened: its 24 graphs asked for at once; the time until the last answer.
  const walls: number[] = [];
  for (let i = 0; i < DASHBOARDS; i++) {
    const started = performance.now();
    await Promise.all(dashboard.map((setting) => report(setting)));
    walls.push(performance.now() - started);
  }
  await server.stop();
  return {
    database: dialect,
    daysAllBoards: { ...daysAllBoards, rows: dayRows.length, evaluations: total(dayRows) },
    itemsOfCard: { ...itemsOfCard, rows: itemRows.length, answers: total(itemRows) },
    weeksOneBoard,
    boardsOverYear,
    dashboard24: stats(
      walls,
      walls.reduce((a, b) => a + b, 0),
    ),
  };
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

function table(all: Figures[]) {
  const rows: [string, string, (f: Figures) => string][] = [
    [
      'TimeSeries Days 730, all boards: p95 (p50)',
      '< 150 ms',
      (f) => `${ms(f.daysAllBoards.p95)} (${ms(f.daysAllBoards.p50)})`,
    ],
    [
      'CustomIntervalItems, one card, 365 days: p95 (p50)',
      '< 100 ms',
      (f) => `${ms(f.itemsOfCard.p95)} (${ms(f.itemsOfCard.p50)})`,
    ],
    ['TimeSeries Weeks 104, one board: p95', '', (f) => ms(f.weeksOneBoard.p95)],
    ['CustomIntervalBoards, 12 months: p95', '', (f) => ms(f.boardsOverYear.p95)],
    ['24 graphs at once, until the last: p95', '', (f) => ms(f.dashboard24.p95)],
  ];
  const header = ['measure', 'target', ...all.map((f) => f.database)];
  const lines = [header, ...rows.map(([label, target, value]) => [label, target, ...all.map(value)])];
  const widths = header.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  const fmt = (l: string[]) => `| ${l.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  say('');
  say(fmt(header));
  say(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const l of lines.slice(1)) say(fmt(l));
}

async function main() {
  say(
    `get-report at ${EVALUATIONS.toLocaleString('en')} evaluations, ${SAMPLES} samples, zone ${ZONE}, on ${DATABASES.join(' and ')} (${os.cpus().length} CPUs, node ${process.version})`,
  );
  const all: Figures[] = [];
  for (const dialect of DATABASES) {
    say(`\n${dialect}`);
    const prepared = await prepare(dialect);
    try {
      const f = await fixture(prepared.database);
      await prepared.database.close();
      const plans = await explainReports(dialect, prepared.url, f);
      mkdirSync(resultsDir, { recursive: true });
      const planFile = path.join(resultsDir, `reports-explain-${dialect}-${EVALUATIONS}.txt`);
      writeFileSync(planFile, plans);
      say(`  plans: ${planFile}`);
      if (process.env.BENCH_PRINT_PLANS === '1') say(plans);
      all.push(await measure(dialect, prepared.url, f));
    } finally {
      await prepared.drop();
    }
  }
  table(all);
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `reports-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ evaluations: EVALUATIONS, zone: ZONE, figures: all }, null, 2));
  say(`\n${file}`);
}

await main();
