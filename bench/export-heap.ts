/**
 * get-excel's live heap (issue 15): the export of the newest BENCH_EXPORT_EVALUATIONS (100,000) evaluations of
 * the first organisation, run in this process on a kept bench database twice over, with a full collection
 * every 4 MB of output. Prints the heap before and after each collection, the RSS, and V8's external memory:
 * whether the export keeps anything (the heap after collection grows) or only leaves garbage for V8 to collect
 * (it stays flat while `npm run bench`'s RSS climbs).
 *
 *   BENCH_DATABASE_URL=sqlite:/tmp/bench.sqlite node --expose-gc --import tsx bench/export-heap.ts
 */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportRequest } from '../common/api/inputs.ts';
import { parseDatabaseUrl } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { exportEvaluations } from '../server/modules/evaluations/excel.ts';
import type { Caller } from '../server/modules/shared/caller.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL: the database of a kept bench run (BENCH_KEEP=1)');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const count = Number(process.env.BENCH_EXPORT_EVALUATIONS || 100_000);
const EVERY = 4_000_000;

const database = openDatabase(parseDatabaseUrl(url));
const { db } = database;
const org = await db.selectFrom('organizations').select('id').orderBy('id').executeTakeFirstOrThrow();
const oldest = await db
  .selectFrom('evaluations')
  .select('completed_at')
  .where('org_id', '=', org.id)
  .where('completed_at', 'is not', null)
  .orderBy('completed_at', 'desc')
  .offset(count - 1)
  .limit(1)
  .executeTakeFirstOrThrow();
const input: ExportRequest = {
  isEditing: true,
  startDateTime: new Date(oldest.completed_at!).toISOString(),
  maxDateTime: new Date(Date.now() + 24 * 60 * 60_000).toISOString(),
  timeZone: 'UTC',
} as ExportRequest;
const caller: Caller = {
  orgId: org.id,
  who: { userId: 0, userName: 'bench', anonKeyId: null },
  managesAll: true,
};
const quiet = { warn() {}, error() {}, info() {}, debug() {}, child: () => quiet };
const mb = (n: number) => (n / 1048576).toFixed(1);

for (let round = 1; round <= 2; round++) {
  gc();
  const start = process.memoryUsage();
  console.log(
    `export ${round}: before it, after a collection: heap ${mb(start.heapUsed)} MB, rss ${mb(start.rss)} MB`,
  );
  const answer = await exportEvaluations(db, caller, input, Date.now(), quiet as never, 'http://bench');
  let bytes = 0;
  let next = EVERY;
  await pipeline(
    answer.file.body as NodeJS.ReadableStream,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes >= next) {
          next += EVERY;
          const before = process.memoryUsage();
          gc();
          const after = process.memoryUsage();
          console.log(
            `  ${mb(bytes).padStart(6)} MB out: heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB after collection, rss ${mb(after.rss)} MB, external ${mb(after.external)} MB`,
          );
        }
        done();
      },
    }),
  );
}
await database.close();
