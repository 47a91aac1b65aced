/**
 * The Actions tab's query at scale (issue 12): `BENCH_ACTIONS` actions (default 100,000) in one organisation
 * (50 boards, 100 evaluators who raise and are assigned them, a quarter closed), plus other organisations'
 * actions mixed in; then get-actions' page query (services' own `actionsPage`) timed at the first page and
 * at a page deep in the set, for an administrator's "All actions" and an evaluator's "My actions", with and
 * without the Open filter. SQLite always; PostgreSQL too when BENCH_PG_URL is set. `npm run bench:actions`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { openAndMigrate, type Database } from '../server/db/index.ts';
import { actionsPage, type ActionsPageFilter } from '../server/modules/actions/service.ts';
import { numberSetting } from './settings.ts';

const ACTIONS = numberSetting('BENCH_ACTIONS', 100_000);
const OTHER_ACTIONS = numberSetting('BENCH_OTHER_ACTIONS', Math.round(ACTIONS / 5));
const RUNS = 30;
const PAGE = 48;
const DAY = 24 * 60 * 60_000;
const now = Date.UTC(2026, 0, 15, 12);

async function seedOrg(database: Database, name: string, count: number) {
  const { db } = database;
  const org = await db
    .insertInto('organizations')
    .values({
      name,
      name_key: name.toLowerCase(),
      subscription_status: 'active',
      num_departments: 50,
      billing_customer_id: null,
      billing_subscription_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const users: number[] = [];
  for (let i = 0; i < 100; i++) {
    const email = `${name.replace(/\W/g, '')}-${i}@bench.test`.toLowerCase();
    const row = await db
      .insertInto('users')
      .values({
        org_id: org.id,
        email,
        email_key: email,
        password_hash: null,
        role: i === 0 ? 'admin' : 'evaluator',
        email_verified: 1,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    users.push(row.id);
  }
  const boards: number[] = [];
  for (let i = 0; i < 50; i++) {
    const row = await db
      .insertInto('boards')
      .values({
        org_id: org.id,
        name: `Board ${i}`,
        name_key: `board ${i}`,
        has_anonymous: 0,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    boards.push(row.id);
  }
  const statuses = ['Open', 'Open', 'Open', 'Done'] as const;
  const priorities = ['Low', 'Medium', 'High'] as const;
  for (let start = 0; start < count; start += 1_000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 1_000); i++) {
      const due = new Date(now + ((i * 7919) % 730) * DAY - 365 * DAY).toISOString().slice(0, 10);
      const status = statuses[i % 4]!;
      rows.push({
        org_id: org.id,
        board_id: boards[i % 50]!,
        board_name: `Board ${i % 50}`,
        evaluation_id: null,
        card_id: null,
        card_name: null,
        item_id: null,
        title: `Action ${i}`,
        description: 'Fix it',
        status,
        priority: priorities[i % 3]!,
        due_date: due,
        time_zone: 'UTC',
        assignee_id: users[(i * 31) % 100]!,
        raised_by_id: users[(i * 17) % 100]!,
        raised_by_name: 'bench',
        close_note: status === 'Open' ? null : 'done',
        closed_at: status === 'Open' ? null : now,
        created_at: now - i,
        updated_at: now - i,
        due_reminded_at: null,
        overdue_reminded_at: null,
      });
    }
    await db.insertInto('actions').values(rows).execute();
  }
  return { orgId: org.id, admin: users[0]!, evaluator: users[7]!, board: boards[3]! };
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(database: Database, orgId: number, filter: ActionsPageFilter) {
  // The cursor of a page deep in the set: the row at 90% of the filter's matches.
  const all = await actionsPage(database.db, orgId, filter, 1_000_000);
  const deep = all[Math.floor(all.length * 0.9)];
  const time = async (f: ActionsPageFilter) => {
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await actionsPage(database.db, orgId, f, PAGE);
      runs.push(performance.now() - started);
    }
    return median(runs);
  };
  return {
    matches: all.length,
    firstPageMs: await time(filter),
    deepPageMs: deep ? await time({ ...filter, after: { dueDate: deep.due_date, id: deep.id } }) : null,
  };
}

async function bench(kind: 'sqlite' | 'postgres') {
  let database: Database;
  let cleanup: () => Promise<void>;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'checkboard-bench-actions-'));
    database = await openAndMigrate({ kind: 'sqlite', file: path.join(dir, 'bench.sqlite') });
    cleanup = async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const base = process.env.BENCH_PG_URL!;
    const name = `checkboard_bench_actions_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    database = await openAndMigrate({ kind: 'postgres', url: url.toString() });
    cleanup = async () => {
      await database.close();
      await admin.query(`drop database ${name}`);
      await admin.end();
    };
  }
  try {
    const seeded = await seedOrg(database, 'Bench Actions Org', ACTIONS);
    for (let i = 0; i < 5; i++) await seedOrg(database, `Other Org ${i}`, Math.round(OTHER_ACTIONS / 5));
    await sql`analyze`.execute(database.db);
    const base: ActionsPageFilter = {
      everyone: true,
      userId: seeded.admin,
      status: null,
      boardId: null,
      assigneeId: null,
      dueFrom: null,
      dueTo: null,
      after: null,
    };
    const cases: [string, ActionsPageFilter][] = [
      ['admin, all actions', base],
      ['admin, all open actions', { ...base, status: 'Open' }],
      ['admin, one board, open', { ...base, status: 'Open', boardId: seeded.board }],
      ['evaluator, my actions', { ...base, everyone: false, userId: seeded.evaluator }],
      ['evaluator, my open actions', { ...base, everyone: false, userId: seeded.evaluator, status: 'Open' }],
    ];
    const out: Record<string, unknown> = {};
    for (const [label, filter] of cases) out[label] = await measure(database, seeded.orgId, filter);
    return out;
  } finally {
    await cleanup();
  }
}

const results: Record<string, unknown> = { sqlite: await bench('sqlite') };
if (process.env.BENCH_PG_URL) results.postgres = await bench('postgres');
console.log(
  `${ACTIONS} actions (+${OTHER_ACTIONS} in other organisations), page ${PAGE}, median of ${RUNS}:`,
);
console.log(JSON.stringify(results, null, 2));
