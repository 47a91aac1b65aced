/**
 * get-excel's export of the newest 100,000 evaluations, made by the export workers (decision 0750) in this
 * process, as the server makes it, with the process's RSS sampled every 25 ms: the peak in each tenth of the
 * file and the growth from the first tenth. Runs the compiled server code `npm run bench` leaves in
 * bench/results/compiled, on a kept bench database:
 *
 *   BENCH_SQLITE_FILE=/path/bench.sqlite node bench/export-worker-memory.mjs
 *
 * LIMITS='{"maxOldGenerationSizeMb":64,"maxYoungGenerationSizeMb":8}' tries other heap limits; HERE=1 makes
 * the export in this thread instead (as tests do); ROUNDS=2 exports twice in the same process.
 */
import { exportInWorkers } from './results/compiled/server/exports/inWorker.js';
import { exportInProcess } from './results/compiled/server/exports/tasks.js';
import { openDatabase } from './results/compiled/server/db/index.js';

const file = process.env.BENCH_SQLITE_FILE;
if (!file) throw new Error('BENCH_SQLITE_FILE: a kept bench database');
const limits = process.env.LIMITS ? JSON.parse(process.env.LIMITS) : undefined;
const { db, location, close } = openDatabase({ kind: 'sqlite', file });
const org = await db
  .selectFrom('evaluations')
  .select('org_id')
  .groupBy('org_id')
  .orderBy((eb) => eb.fn.countAll(), 'desc')
  .limit(1)
  .executeTakeFirstOrThrow();
const owner = await db
  .selectFrom('users')
  .selectAll()
  .where('org_id', '=', org.org_id)
  .where('role', '=', 'owner')
  .executeTakeFirstOrThrow();
const from = await db
  .selectFrom('evaluations')
  .select('completed_at')
  .where('org_id', '=', org.org_id)
  .where('completed_at', 'is not', null)
  .orderBy('completed_at', 'desc')
  .offset(99_999)
  .limit(1)
  .executeTakeFirstOrThrow();
const actor = {
  kind: 'user',
  userId: owner.id,
  orgId: org.org_id,
  orgName: 'bench',
  email: owner.email,
  role: 'owner',
  paid: true,
  sessionId: null,
  tokenId: null,
};
const log = { error: console.error, warn: console.error, info() {}, debug() {} };
const run = process.env.HERE ? exportInProcess(db) : exportInWorkers(location, limits).run;
const mb = (bytes) => Math.round(bytes / 1024 / 1024);
for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round++) {
  const started = performance.now();
  const input = {
    isEditing: true,
    startDateTime: new Date(from.completed_at).toISOString(),
    timeZone: 'UTC',
  };
  const answer = await run({ call: 'getExcel', actor, input, now: Date.now(), appUrl: 'http://bench' }, log);
  const samples = [];
  let bytes = 0;
  const timer = setInterval(() => samples.push([bytes, process.memoryUsage().rss]), 25);
  for await (const chunk of answer.file.body) bytes += chunk.length;
  clearInterval(timer);
  const peaks = Array(10).fill(0);
  for (const [at, rss] of samples) {
    const tenth = Math.min(9, Math.floor((at / bytes) * 10));
    peaks[tenth] = Math.max(peaks[tenth], rss);
  }
  const growth = (Math.max(...peaks.slice(1)) - peaks[0]) / peaks[0];
  console.log(
    `${(bytes / 1024 / 1024).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
      `RSS peak by tenth (MB): ${peaks.map(mb).join(' ')}; growth ${(growth * 100).toFixed(1)}%`,
  );
}
await close();
