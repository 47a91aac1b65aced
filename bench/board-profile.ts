/**
 * The board view's get-evaluations in this process, on a kept bench database (decision 0626): boards of the
 * first organisation in turn, 31 days, each phase timed apart (the service, the response check, the JSON).
 * With BENCH_COMPARE_MODULE (a module exporting boardEvaluations, e.g. an older evaluations.ts saved under
 * bench/), that one runs interleaved with the current one and every answer must be the same.
 *
 *   BENCH_DATABASE_URL=sqlite:/tmp/checkboard-scale-100000-1000000.sqlite npx tsx bench/board-profile.ts
 *
 * BENCH_TIME_ZONE (default: none, i.e. UTC), BENCH_SAMPLES (300).
 */
import os from 'node:os';
import path from 'node:path';
import { getEvaluations } from '../common/api/evaluations.ts';
import { parseDatabaseUrl } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import type { Caller } from '../server/modules/shared/caller.ts';
import { boardEvaluations } from '../server/modules/shared/evaluations.ts';

type Service = typeof boardEvaluations;

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL: the database of a kept bench run (BENCH_KEEP=1)');
const compareWith = process.env.BENCH_COMPARE_MODULE;
const other: Service | undefined = compareWith
  ? ((await import(path.resolve(compareWith))) as { boardEvaluations: Service }).boardEvaluations
  : undefined;
const zone = process.env.BENCH_TIME_ZONE || undefined;
const samples = Number(process.env.BENCH_SAMPLES || 300);
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

const times = { current: [] as number[], other: [] as number[], check: [] as number[], json: [] as number[] };
let rows = 0;
for (let i = 0; i < samples + 30; i++) {
  const now = Date.now();
  const input = { boardId: boards[i % boards.length]!, since: now - 31 * DAY, timeZone: zone };
  const t0 = performance.now();
  const answer = await boardEvaluations(db, caller, input, now);
  const t1 = performance.now();
  const checked = getEvaluations.response.safeParse(answer);
  if (!checked.success) throw new Error('the answer does not match the contract');
  const t2 = performance.now();
  const json = JSON.stringify(checked.data);
  const t3 = performance.now();
  let otherMs = 0;
  if (other) {
    const o0 = performance.now();
    const theirs = await other(db, caller, input, now);
    otherMs = performance.now() - o0;
    if (JSON.stringify(theirs) !== json) throw new Error(`the answers differ (board ${input.boardId})`);
  }
  if (i < 30) continue; // warm-up
  times.current.push(t1 - t0);
  times.check.push(t2 - t1);
  times.json.push(t3 - t2);
  times.other.push(otherMs);
  rows += answer.evaluations.length;
}
const at = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)]!;
const line = (label: string, values: number[]) =>
  `  ${label}: p50 ${at(values, 0.5).toFixed(2)} ms, p95 ${at(values, 0.95).toFixed(2)} ms`;
console.log(
  [
    `${parseDatabaseUrl(url).kind}, zone ${zone ?? 'UTC'}, ${samples} samples, ${(rows / samples).toFixed(0)} evaluations a board, load average ${os
      .loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
    line('boardEvaluations', times.current),
    ...(other ? [line(`${compareWith} (same answers)`, times.other)] : []),
    line('response check (zod)', times.check),
    line('JSON.stringify', times.json),
  ].join('\n'),
);
await database.close();
