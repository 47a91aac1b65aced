/**
 * Two apps (as two processes would be) on one database, each with its own connections: what the
 * limits shared across processes are tested with in-process. server/hardening/two-instances.test.ts
 * starts real processes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../app.ts';
import { FakeClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { DialectName } from '../db/dialect.ts';
import { openDatabase, type Database } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { testConfig } from './harness.ts';

export async function twoInstances(dialect: DialectName, overrides: Partial<Config> = {}) {
  let location: string;
  let first: Database;
  let cleanup: () => Promise<void>;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cb-two-'));
    location = path.join(dir, 'db.sqlite');
    first = openDatabase({ kind: 'sqlite', file: location });
    await migrateToLatest(first.db, 'sqlite');
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const created: TestDatabase = await createTestDatabase('postgres');
    first = created.database;
    location = created.location;
    cleanup = () => created.drop();
  }
  const second =
    dialect === 'sqlite'
      ? openDatabase({ kind: 'sqlite', file: location })
      : openDatabase({ kind: 'postgres', url: location }, { poolSize: 5 });
  const clock = new FakeClock();
  const config = testConfig({
    smtpUrl: undefined,
    sessionSecret: 'limit-test-secret-0123456789abcdef',
    ...overrides,
  });
  const options = { config, clock, logger: false, webDir: '/nonexistent' } as const;
  const apps: App[] = [
    await buildApp({ ...options, database: first }),
    await buildApp({ ...options, database: second }),
  ];
  return {
    apps,
    clock,
    config,
    db: first.db,
    async close() {
      for (const app of apps) await app.app.close();
      await second.close();
      if (dialect === 'sqlite') await first.close();
      await cleanup();
    },
  };
}
