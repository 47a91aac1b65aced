/**
 * The benchmark's server: the real app (buildApp, as server/main.ts builds it) in a process of its own,
 * listening on a free port of 127.0.0.1, which it reports to the parent over IPC.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { startItemTotalsFold } from '../server/jobs/itemTotalsFold.ts';

const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});
const database = openDatabase(config.database, { backgroundCheckpoint: true, syncCommitsOffLoop: true });
const { app } = await buildApp({ config, database, webDir: '/nonexistent', exportWorkers: true });
const stopFold = startItemTotalsFold(database.db, app.log);
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as AddressInfo).port });

const stop = async () => {
  stopFold();
  await app.close();
  await database.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('disconnect', stop);

// BENCH_MEMORY_LOG=1: the server's memory every half second, to see where an RSS figure comes from.
if (process.env.BENCH_MEMORY_LOG === '1') {
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  setInterval(() => {
    const m = process.memoryUsage();
    console.error(
      `memory rss ${mb(m.rss)} heapTotal ${mb(m.heapTotal)} heapUsed ${mb(m.heapUsed)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)}`,
    );
  }, 500).unref();
}
