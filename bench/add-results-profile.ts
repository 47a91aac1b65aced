/**
 * add-results one at a time in this process (Fastify's inject, no sockets), on a kept bench database, with
 * every statement's time (decision 0745): where a single completion's time goes, and what its slowest
 * answers spent it on. Each round starts an evaluation of a card of the first organisation, then completes
 * it; only the completion is timed.
 *
 *   BENCH_DATABASE_URL=sqlite:/tmp/bench.sqlite npx tsx bench/add-results-profile.ts
 *
 * BENCH_SAMPLES (300); BENCH_FOREGROUND_CHECKPOINT=1 opens SQLite without the checkpoint worker (SQLite's
 * own automatic checkpoints, in the commits), for the comparison.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.ts';
import { insertSession, SESSION_COOKIE } from '../server/auth/sessions.ts';
import { loadConfig } from '../server/config.ts';
import { openAndMigrate } from '../server/db/index.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL: the database of a kept bench run (BENCH_KEEP=1)');
const samples = Number(process.env.BENCH_SAMPLES || 300);
const backgroundCheckpoint = process.env.BENCH_FOREGROUND_CHECKPOINT !== '1';

let statements: { sql: string; ms: number }[] = [];
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATABASE_URL: url,
  STORAGE_URL: `file:${path.join(os.tmpdir(), 'checkboard-add-results-profile')}`,
});
const database = await openAndMigrate(config.database, {
  backgroundCheckpoint,
  onQuery: (sql, ms) => statements.push({ sql, ms }),
});
const { app } = await buildApp({ config, database, webDir: '/nonexistent' });
await app.ready();
const { db } = database;

const org = await db
  .selectFrom('organizations')
  .select('id')
  .where('name', '=', 'Bench Main')
  .executeTakeFirstOrThrow();
const evaluators = await db
  .selectFrom('users')
  .select('id')
  .where('org_id', '=', org.id)
  .where('role', '=', 'evaluator')
  .orderBy('id')
  .limit(10)
  .execute();
const boardCards = await db
  .selectFrom('board_cards')
  .select(['board_id', 'card_id'])
  .where('org_id', '=', org.id)
  .orderBy('board_id')
  .orderBy('card_id')
  .execute();
const cookies: string[] = [];
for (const user of evaluators) {
  const { token } = await insertSession(db, { id: user.id, orgId: org.id }, Date.now(), 60 * 60_000);
  cookies.push(`${SESSION_COOKIE}=${token}`);
}

const call = async (name: string, cookie: string, payload: object) => {
  const answer = await app.inject({
    method: 'POST',
    url: `/api/${name}`,
    headers: { cookie, 'idempotency-key': randomUUID() },
    payload,
  });
  if (answer.statusCode !== 200) throw new Error(`${name}: ${answer.statusCode} ${answer.body}`);
  return JSON.parse(answer.body) as unknown;
};

const times: number[] = [];
const byStatement = new Map<string, number[]>();
const slowest: { ms: number; sqlMs: number; top: string }[] = [];
const perCompletion: number[] = [];
for (let i = 0; i < samples; i++) {
  const { board_id: boardID, card_id: cardID } = boardCards[(i * 7) % boardCards.length]!;
  const cookie = cookies[i % cookies.length]!;
  const { id: evalID } = (await call('add-evaluation', cookie, { boardID, cardID })) as { id: number };
  const items = await db
    .selectFrom('card_items')
    .select(['id', 'type'])
    .where('org_id', '=', org.id)
    .where('card_id', '=', cardID)
    .where('is_deleted', '=', 0)
    .orderBy('position')
    .execute();
  const results = items.map((item) =>
    item.type === 'pass_fail'
      ? { item_id: item.id, pass: (i + item.id) % 23 !== 0 }
      : item.type === 'text'
        ? { item_id: item.id, text_result: `Checked ${i}` }
        : item.type === 'numeric'
          ? { item_id: item.id, numeric_result: i / 10 }
          : { item_id: item.id },
  );
  statements = [];
  const start = performance.now();
  await call('add-results', cookie, { evalID, results });
  const ms = performance.now() - start;
  times.push(ms);
  for (const { sql, ms: took } of statements) {
    const key = sql.slice(0, 70);
    const list = byStatement.get(key);
    if (list) list.push(took);
    else byStatement.set(key, [took]);
  }
  perCompletion.push(statements.length);
  const longest = statements.reduce((a, b) => (b.ms > a.ms ? b : a), { sql: '', ms: 0 });
  slowest.push({
    ms,
    sqlMs: statements.reduce((sum, s) => sum + s.ms, 0),
    top: `${longest.sql.slice(0, 40)} ${longest.ms.toFixed(1)} ms`,
  });
}

const at = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
const sorted = [...times].sort((a, b) => a - b);
const [load1, load5] = os.loadavg();
console.log(
  `${database.dialect}, ${samples} completions one at a time, checkpoints ${backgroundCheckpoint ? 'in the worker' : "in the commits (SQLite's own)"}, load average ${load1!.toFixed(1)} ${load5!.toFixed(1)}`,
);
console.log(
  `  add-results: p50 ${at(sorted, 0.5).toFixed(2)} ms, p95 ${at(sorted, 0.95).toFixed(2)} ms, p99 ${at(sorted, 0.99).toFixed(2)} ms`,
);
console.log('  statements by total time (count, p50, p95, total):');
const rows = [...byStatement.entries()]
  .map(([sql, list]) => {
    const s = [...list].sort((a, b) => a - b);
    return { sql, n: s.length, p50: at(s, 0.5), p95: at(s, 0.95), total: s.reduce((a, b) => a + b, 0) };
  })
  .sort((a, b) => b.total - a.total);
for (const r of rows)
  console.log(
    `    ${String(r.n).padStart(5)} ${r.p50.toFixed(2).padStart(6)} ${r.p95.toFixed(2).padStart(6)} ${r.total.toFixed(0).padStart(6)} ms  ${r.sql}`,
  );
const outside = slowest.map((s) => s.ms - s.sqlMs).sort((a, b) => a - b);
console.log(
  `  statements a completion: ${Math.min(...perCompletion)}-${Math.max(...perCompletion)}; time outside SQL (request, validation, JavaScript): p50 ${at(outside, 0.5).toFixed(2)} ms, p95 ${at(outside, 0.95).toFixed(2)} ms`,
);
console.log('  the 5 slowest completions (total, in SQL, their longest statement):');
for (const s of slowest.sort((a, b) => b.ms - a.ms).slice(0, 5))
  console.log(`    ${s.ms.toFixed(1)} ms, ${s.sqlMs.toFixed(1)} ms in SQL; ${s.top}`);

await app.close();
await database.close();
