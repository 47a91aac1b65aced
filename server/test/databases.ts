/**
 * Test databases: every integration suite runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 * Each suite gets a database of its own, created here and dropped when it ends.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/index.ts';
import type { DialectName } from '../db/dialect.ts';
import { migrateToLatest } from '../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PostgreSQL database the suites' databases are copied from ('' without PostgreSQL). */
    postgresTemplate: string;
  }
}

export const TEST_DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

export interface TestDatabase {
  database: Database;
  /** The URL (PostgreSQL) or file (SQLite) of this database, for a second process. */
  location: string;
  drop(): Promise<void>;
}

export async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(
  dialect: DialectName,
  options: { onQuery?: (sql: string) => void; migrate?: boolean; sqliteFile?: boolean } = {},
): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (dialect === 'sqlite' && options.sqliteFile) {
    // A file, for a suite whose server opens a second connection (the export workers).
    const dir = mkdtempSync(path.join(os.tmpdir(), 'checkboard-test-'));
    const file = path.join(dir, 'test.sqlite');
    const database = openDatabase({ kind: 'sqlite', file }, options);
    if (migrate) await migrateToLatest(database.db, 'sqlite');
    return {
      database,
      location: file,
      async drop() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (dialect === 'sqlite') {
    const database = openDatabase({ kind: 'sqlite', file: ':memory:' }, options);
    if (migrate) await migrateToLatest(database.db, 'sqlite');
    return { database, location: ':memory:', drop: () => database.close() };
  }
  const name = `checkboard_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  // A migrated database is copied from the run's template (server/test/globalSetup.ts) when there is one.
  const template = migrate ? inject('postgresTemplate') : '';
  await adminQuery(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  const database = openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 5, ...options });
  if (migrate && !template) await migrateToLatest(database.db, 'postgres');
  return {
    database,
    location: url.toString(),
    async drop() {
      await database.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}
