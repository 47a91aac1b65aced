/**
 * PostgreSQL queries without a callback are settled through node-postgres's callback (decision 0776): the
 * same rows, counts and errors as before, and calls that answer for themselves left to node-postgres.
 */
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { settleQueriesByCallback } from './pgQueryPromise.ts';

describe('settleQueriesByCallback', () => {
  /** A stand-in for node-postgres's client that records how it was called and answers by callback only. */
  function recordingClient(answer: { error?: Error; result?: unknown }) {
    const calls: unknown[][] = [];
    const client = {
      query: (...args: unknown[]) => {
        calls.push(args);
        const callback = args.find((a) => typeof a === 'function') as
          ((error: Error | null, result?: unknown) => void) | undefined;
        if (!callback) return 'its own promise';
        queueMicrotask(() => callback(answer.error ?? null, answer.result));
        return undefined;
      },
    };
    settleQueriesByCallback(client as unknown as pg.Client);
    return { client: client as unknown as { query: (...args: unknown[]) => unknown }, calls };
  }

  it('calls node-postgres with a callback and settles its own promise with the result', async () => {
    const { client, calls } = recordingClient({ result: { rows: [{ a: 1 }] } });
    await expect(client.query('select $1::int as a', [1])).resolves.toEqual({ rows: [{ a: 1 }] });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.slice(0, 2)).toEqual(['select $1::int as a', [1]]);
    expect(typeof calls[0]![2]).toBe('function');
  });

  it('rejects with node-postgres’s error', async () => {
    const error = new Error('boom');
    const { client } = recordingClient({ error });
    await expect(client.query('select 1')).rejects.toBe(error);
  });

  it('leaves a call with a callback, or a query object, to node-postgres', () => {
    const { client, calls } = recordingClient({ result: { rows: [] } });
    const callback = () => {};
    client.query('select 1', [], callback);
    client.query('select 1', callback);
    const submittable = { submit: () => {} };
    expect(client.query(submittable)).toBe('its own promise');
    const withOwn = { text: 'select 1', callback };
    client.query(withOwn);
    expect(calls).toEqual([
      ['select 1', [], callback],
      ['select 1', callback, undefined],
      [submittable, undefined, undefined],
      [withOwn, undefined, undefined],
    ]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('queries settled by callback [postgres]', () => {
  let test: TestDatabase;
  let db: Kysely<unknown>;
  beforeAll(async () => {
    test = await createTestDatabase('postgres', { migrate: false });
    db = test.database.db as unknown as Kysely<unknown>;
    await sql`create table settled_probe (a integer primary key, b text)`.execute(db);
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('answers rows, counts and errors through Kysely as node-postgres did', async () => {
    const inserted = await sql`insert into settled_probe (a, b) values (1, 'one'), (2, 'two')`.execute(db);
    expect(inserted.numAffectedRows).toBe(2n);
    // The same statement again, named from its second call (decision 0754): the same answer.
    for (let i = 0; i < 3; i++) {
      const read = await sql<{
        a: number;
        b: string;
      }>`select a, b from settled_probe where a >= ${1} order by a`.execute(db);
      expect(read.rows).toEqual([
        { a: 1, b: 'one' },
        { a: 2, b: 'two' },
      ]);
    }
    const failed = sql`insert into settled_probe (a, b) values (1, 'again')`.execute(db);
    await expect(failed).rejects.toMatchObject({ code: '23505', constraint: 'settled_probe_pkey' });
    await expect(sql`select from nowhere_at_all`.execute(db)).rejects.toMatchObject({ code: '42P01' });
  });

  it('keeps node-postgres’s own ways: a callback, and a query object that emits its rows', async () => {
    // A pool's client, as the app's 'connect' handler leaves it.
    const pool = new pg.Pool({ connectionString: test.location, max: 1 });
    pool.on('connect', (client) => settleQueriesByCallback(client));
    const client = await pool.connect();
    try {
      const byCallback = await new Promise<pg.QueryResult>((resolve, reject) =>
        client.query('select 7 as n', [], (error, result) => (error ? reject(error) : resolve(result))),
      );
      expect(byCallback.rows).toEqual([{ n: 7 }]);
      const rows: unknown[] = [];
      const query = client.query(new pg.Query('select generate_series(1, 3) as n'));
      query.on('row', (row: unknown) => rows.push(row));
      await new Promise((resolve, reject) => query.on('end', resolve).on('error', reject));
      expect(rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      const promised = await client.query<{ n: number }>('select $1::int as n', [9]);
      expect(promised.rows).toEqual([{ n: 9 }]);
      expect(promised.rowCount).toBe(1);
    } finally {
      client.release();
      await pool.end();
    }
  });
});
