/**
 * PostgreSQL's JIT compilation is off on the app's connections unless PG_JIT=true (decision 0758): it starts
 * from a plan's estimated cost, and made a report's statement of literal ranges compile for longer than it ran.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { openDatabase } from './index.ts';

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres('JIT compilation [postgres]', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('postgres', { migrate: false });
  });
  afterAll(async () => {
    await test?.drop();
  });

  /** The connection's jit setting and where it came from ('client': the connection's startup options). */
  const jitOf = async (db: Kysely<unknown>) =>
    (
      await sql<{
        setting: string;
        source: string;
      }>`select setting, source from pg_settings where name = 'jit'`.execute(db)
    ).rows[0]!;

  it('is turned off by the app on every pooled connection', async () => {
    const db = test.database.db as unknown as Kysely<unknown>;
    // Several connections at once, so more than the first one is asked.
    const seen = await Promise.all(Array.from({ length: 4 }, () => db.connection().execute(jitOf)));
    expect(seen).toEqual(Array.from({ length: 4 }, () => ({ setting: 'off', source: 'client' })));
  });

  it('is left as the server sets it with PG_JIT=true', async () => {
    const own = openDatabase({ kind: 'postgres', url: test.location, jit: true });
    const plain = new pg.Client({ connectionString: test.location });
    await plain.connect();
    try {
      const app = await jitOf(own.db as unknown as Kysely<unknown>);
      const server = (
        await plain.query<{ setting: string }>(`select setting from pg_settings where name = 'jit'`)
      ).rows[0]!;
      expect(app.source).not.toBe('client');
      expect(app.setting).toBe(server.setting);
    } finally {
      await plain.end();
      await own.close();
    }
  });
});
