/**
 * The board view's get-evaluations in this process, on a kept bench database (decision 0626): boards of the
 * first organisation in turn, 31 days, to the text the server sends (decision 0775: the service writes it).
 * With BENCH_COMPARE_MODULE (a module exporting boardEvaluations, e.g. an older evaluations.ts saved under
 * bench/), that one runs interleaved with the current one and every answer must be the same.
 *
 *   BENCH_DATABASE_URL=sqlite:/tmp/checkboard-scale-100000-1000000.sqlite npx tsx bench/board-profile.ts
 *
 * It prints the p50 and p95, and the process's garbage collections during the measured calls (decision 0776).
 * BENCH_TIME_ZONE (default: none, i.e. UTC), BENCH_SAMPLES (300), BENCH_BOARD_ANSWERS (afresh, today or kept).
 */
import os from 'node:os';
import { constants as perf, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { getEvaluations } from '../common/api/evaluations.ts';
import { parseDatabaseUrl } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import type { Caller } from '../server/modules/shared/caller.ts';
import { boardEvaluations } from '../server/modules/shared/evaluations.ts';
import { JsonText } from '../server/lib/jsonText.ts';
import { changeBoardDay, dayOf } from './boardChanges.ts';

type Service = (...args: Parameters<typeof boardEvaluations>) => Promise<unknown>;

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL: the database of a kept bench run (BENCH_KEEP=1)');
const compareWith = process.env.BENCH_COMPARE_MODULE;
const other: Service | undefined = compareWith
  ? ((await import(path.resolve(compareWith))) as { boardEvaluations: Service }).boardEvaluations
  : undefined;
const zone = process.env.BENCH_TIME_ZONE || undefined;
const samples = Number(process.env.BENCH_SAMPLES || 300);
/**
 * BENCH_BOARD_ANSWERS: `afresh` (the default) changes the board before every call as a write of the window's
 * first day would, so every answer's window is read and written; `today` as a write of today would (decision
 * 0786: today's rows read); `kept` leaves the boards unchanged (decision 0784).
 */
const answers = process.env.BENCH_BOARD_ANSWERS || 'afresh';
if (!['afresh', 'today', 'kept'].includes(answers))
  throw new Error(`BENCH_BOARD_ANSWERS: afresh, today or kept, not ${answers}`);
const DAY = 24 * 60 * 60_000;

const database = openDatabase(parseDatabaseUrl(url));
const { db } = database;
const org = await db.selectFrom('organizations').select('id').orderBy('id').executeTakeFirstOrThrow();
const owner = await db
  .selectFrom('users')
  .select(['id', 'email'])
  .where('org_id', '=', org.id)
  .where('role', '=', 'owner')
  .executeTakeFirstOrThrow();
const boards = (
  await db.selectFrom('boards').select('id').where('org_id', '=', org.id).orderBy('id').execute()
).map((b) => b.id);
const caller: Caller = {
  orgId: org.id,
  who: { userId: owner.id, userName: owner.email, anonKeyId: null },
  managesAll: true,
};

/**
 * One call as the server answers it: the service, and for an answer of objects (a module from before decision
 * 0775) the response check and JSON.stringify the server then does; an answer of JSON text is sent as it is.
 */
async function answer(service: Service, input: Parameters<Service>[2], now: number) {
  const t0 = performance.now();
  const result: unknown = await service(db, caller, input, now);
  const t1 = performance.now();
  if (result instanceof JsonText) return { text: result.text, service: t1 - t0, check: 0, json: 0 };
  const checked = getEvaluations.response.safeParse(result);
  if (!checked.success) throw new Error('the answer does not match the contract');
  const t2 = performance.now();
  const text = JSON.stringify(checked.data);
  const t3 = performance.now();
  return { text, service: t1 - t0, check: t2 - t1, json: t3 - t2 };
}
const total = (a: { service: number; check: number; json: number }) => a.service + a.check + a.json;

const times = { current: [] as number[], other: [] as number[], check: [] as number[], json: [] as number[] };
let rows = 0;
// The process's garbage collections during the measured calls (decision 0776): young (scavenges) and full.
const collections = { from: Infinity, young: [] as number[], full: [] as number[] };
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
    if (entry.startTime < collections.from) continue;
    const kind = entry.detail?.kind;
    if (kind === perf.NODE_PERFORMANCE_GC_MINOR) collections.young.push(entry.duration);
    else if (kind === perf.NODE_PERFORMANCE_GC_MAJOR) collections.full.push(entry.duration);
  }
});
gcObserver.observe({ entryTypes: ['gc'] });
// Warm-up: every board once at least, so that with answers kept every measured call finds its board's.
const warmUp = Math.max(30, boards.length);
for (let i = 0; i < samples + warmUp; i++) {
  if (i === warmUp) collections.from = performance.now();
  const now = Date.now();
  // The same start all day long, as the page asks (the kept answers are kept by it: decision 0784).
  const since = Math.floor((now - 30 * DAY) / DAY) * DAY;
  const input = { boardId: boards[i % boards.length]!, since, timeZone: zone };
  if (answers !== 'kept') await changeBoardDay(db, input.boardId, dayOf(answers === 'today' ? now : since));
  const ours = await answer(boardEvaluations, input, now);
  let theirs: Awaited<ReturnType<typeof answer>> | undefined;
  if (other) {
    theirs = await answer(other, input, now);
    if (!isDeepStrictEqual(JSON.parse(theirs.text), JSON.parse(ours.text)))
      throw new Error(`the answers differ (board ${input.boardId})`);
  }
  if (i < warmUp) continue;
  times.current.push(total(ours));
  times.check.push(ours.check);
  times.json.push(ours.json);
  if (theirs) times.other.push(total(theirs));
  rows += (JSON.parse(ours.text) as { evaluations: unknown[] }).evaluations.length;
}
const at = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)]!;
// The last entries arrive after the loop: let the observer's callback run.
await new Promise((resolve) => setTimeout(resolve, 50));
gcObserver.disconnect();
const pauses = (label: string, values: number[]) =>
  `  ${label}: ${values.length}` +
  (values.length
    ? `, pause p50 ${at(values, 0.5).toFixed(2)} ms, max ${Math.max(...values).toFixed(2)} ms`
    : '');
const line = (label: string, values: number[]) =>
  `  ${label}: p50 ${at(values, 0.5).toFixed(2)} ms, p95 ${at(values, 0.95).toFixed(2)} ms`;
console.log(
  [
    `${parseDatabaseUrl(url).kind}, ${{ kept: 'answers kept', today: 'boards changed today before each call', afresh: 'boards changed on the window’s first day before each call' }[answers]}, zone ${zone ?? 'UTC'}, ${samples} samples, ${(rows / samples).toFixed(0)} evaluations a board, load average ${os
      .loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
    line('boardEvaluations, to the text sent', times.current),
    ...(other ? [line(`${compareWith}, to the text sent (same answers)`, times.other)] : []),
    ...(times.check.some((t) => t > 0)
      ? [line('  of which the response check (zod)', times.check), line('  and JSON.stringify', times.json)]
      : []),
    pauses('young-generation collections (scavenges) meanwhile', collections.young),
    pauses('full collections meanwhile', collections.full),
  ].join('\n'),
);
await database.close();
