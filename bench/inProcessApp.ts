/**
 * The app in this process on a random port of 127.0.0.1, with a fresh SQLite file and a folder for uploads
 * under a temporary directory, for the benches that time single calls (photo-upload.ts, pdf-report.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openAndMigrate } from '../server/db/index.ts';

export async function startInProcessApp(name: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `checkboard-${name}-bench-`));
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
    STORAGE_URL: `file:${path.join(dir, 'uploads')}`,
    // The benchmark fetches one report many times a minute: measured, not limited (decision 0715).
    REPORTS_PER_MINUTE_PER_MEMBER: '1000000',
    REPORTS_PER_MINUTE_PER_ORG: '1000000',
  });
  const database = await openAndMigrate(config.database);
  const { app } = await buildApp({ config, database, webDir: '/nonexistent' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    database,
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
