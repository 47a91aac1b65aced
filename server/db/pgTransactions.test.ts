/**
 * A transaction's BEGIN with its first statement and its COMMIT with its last (decision 0782): what is sent
 * to PostgreSQL, that the values arrive as they were, and that a failure of either marked statement leaves
 * nothing written and the connection usable. On SQLite the marks change nothing.
 */
import { CompiledQuery, Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { isUniqueViolation } from './errors.ts';
import { executeFirst, executeLast, inlined, PairingPostgresDialect } from './pgTransactions.ts';

interface Probe {
  pair_probe: { k: string; v: string | null; n: number | null };
}

describe('inlined', () => {
  it('writes scalars in as literals, quotes and backslashes escaped', () => {
    const compiled = CompiledQuery.raw(
      'update t set a = $1, b = $2, c = $3, d = $4 where e = $10 or f = $1',
      ["it's", null, 12.5, true, 'a', 'b', 'c', 'd', 'e', 'back\\slash'],
    );
    expect(inlined(compiled)).toBe(
      "update t set a = 'it''s', b = null, c = 12.5, d = true where e =  E'back\\\\slash' or f = 'it''s'",
    );
  });

  it('refuses what it cannot write safely: objects, buffers, non-finite numbers, a text with literals or comments', () => {
    expect(inlined(CompiledQuery.raw('select $1', [{ a: 1 }]))).toBeUndefined();
    expect(inlined(CompiledQuery.raw('select $1', [Buffer.from('x')]))).toBeUndefined();
    expect(inlined(CompiledQuery.raw('select $1', [Number.NaN]))).toBeUndefined();
    expect(inlined(CompiledQuery.raw("select '$1', $1", ['x']))).toBeUndefined();
    expect(inlined(CompiledQuery.raw('select $1 -- $2', ['x']))).toBeUndefined();
    expect(inlined(CompiledQuery.raw('select $1 /* $2 */', ['x']))).toBeUndefined();
    expect(inlined(CompiledQuery.raw('select $2', ['x']))).toBeUndefined();
  });
});

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres('BEGIN and COMMIT paired with the first and last statements [postgres]', () => {
  let test: TestDatabase;
  let pool: pg.Pool;
  let db: Kysely<Probe>;
  /** The texts sent to the server, in order. */
  const sent: string[] = [];

  beforeAll(async () => {
    test = await createTestDatabase('postgres', { migrate: false });
    await sql`create table pair_probe (k text primary key, v text, n bigint)`.execute(
      test.database.db as unknown as Kysely<Probe>,
    );
    // One connection, whose every query is recorded.
    pool = new pg.Pool({ connectionString: test.location, max: 1 });
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        if (typeof args[0] === 'string') sent.push(args[0]);
        return query(...args);
      };
    });
    db = new Kysely<Probe>({ dialect: new PairingPostgresDialect({ pool }) });
  });
  afterAll(async () => {
    await db?.destroy();
    await test?.drop();
  });

  const rows = () => db.selectFrom('pair_probe').selectAll().orderBy('k').execute();
  const clear = async () => {
    await db.deleteFrom('pair_probe').execute();
    sent.length = 0;
  };
  /** Runs `work` in a transaction after a row 'taken' is written; answers what the transaction threw. */
  const failedWithTaken = async (work: (trx: Kysely<Probe>) => Promise<void>) => {
    await clear();
    await db.insertInto('pair_probe').values({ k: 'taken', v: null, n: null }).execute();
    sent.length = 0;
    return db
      .transaction()
      .execute(work)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
  };

  it('sends the first statement with BEGIN and the last with COMMIT, and the values arrive as they were', async () => {
    await clear();
    const tricky = "it's \\ a $1 'value'; commit; é ✓";
    await db.transaction().execute(async (trx) => {
      await executeFirst(trx, trx.insertInto('pair_probe').values({ k: 'a', v: tricky, n: null }));
      await trx.insertInto('pair_probe').values({ k: 'b', v: 'middle', n: 2 }).execute();
      await executeLast(
        trx,
        trx.updateTable('pair_probe').set({ n: 1_732_850_000_000 }).where('k', '=', 'a'),
      );
    });
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatch(/^begin; insert into "pair_probe"/);
    expect(sent[1]).toMatch(/^insert into "pair_probe"/);
    expect(sent[2]).toMatch(/^update "pair_probe" .*; commit$/);
    expect(await rows()).toEqual([
      { k: 'a', v: tricky, n: 1_732_850_000_000 },
      { k: 'b', v: 'middle', n: 2 },
    ]);
  });

  it('a transaction without marks sends BEGIN and COMMIT on their own; one that runs nothing sends nothing', async () => {
    await clear();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('pair_probe').values({ k: 'c', v: null, n: null }).execute();
    });
    expect(sent).toEqual(['begin', expect.stringMatching(/^insert/), 'commit']);
    sent.length = 0;
    await db.transaction().execute(async () => {});
    expect(sent).toEqual([]);
    await expect(
      db.transaction().execute(async () => {
        throw new Error('before any statement');
      }),
    ).rejects.toThrow('before any statement');
    expect(sent).toEqual([]);
  });

  it('a first statement that fails rolls back, answers its own error, and leaves the connection usable', async () => {
    const failed = await failedWithTaken(async (trx) => {
      await executeFirst(trx, trx.insertInto('pair_probe').values({ k: 'taken', v: 'again', n: null }));
    });
    expect(isUniqueViolation(failed)).toBe(true);
    expect(sent).toEqual([expect.stringMatching(/^begin; insert/), 'rollback']);
    // Not left in an aborted transaction: the next statements run and commit.
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('pair_probe').values({ k: 'after', v: null, n: null }).execute();
    });
    expect((await rows()).map((r) => r.k)).toEqual(['after', 'taken']);
  });

  it('a last statement that fails fails the commit: nothing of the transaction is written', async () => {
    const failed = await failedWithTaken(async (trx) => {
      await executeFirst(trx, trx.insertInto('pair_probe').values({ k: 'first', v: null, n: null }));
      await executeLast(trx, trx.insertInto('pair_probe').values({ k: 'taken', v: null, n: null }));
    });
    expect(isUniqueViolation(failed)).toBe(true);
    expect(sent).toEqual([
      expect.stringMatching(/^begin; insert/),
      expect.stringMatching(/^insert .*; commit$/),
      'rollback',
    ]);
    expect((await rows()).map((r) => r.k)).toEqual(['taken']);
  });

  it('a statement after the last one is refused, and the transaction rolled back', async () => {
    await clear();
    await expect(
      db.transaction().execute(async (trx) => {
        await executeLast(trx, trx.insertInto('pair_probe').values({ k: 'last', v: null, n: null }));
        await trx.insertInto('pair_probe').values({ k: 'later', v: null, n: null }).execute();
      }),
    ).rejects.toThrow(/after the one marked as its transaction/);
    expect(await rows()).toEqual([]);
    // Marked alone, the last statement goes with both BEGIN and COMMIT.
    sent.length = 0;
    await db.transaction().execute(async (trx) => {
      await executeLast(trx, trx.insertInto('pair_probe').values({ k: 'only', v: null, n: null }));
    });
    expect(sent).toEqual([expect.stringMatching(/^begin; insert .*; commit$/)]);
    expect((await rows()).map((r) => r.k)).toEqual(['only']);
  });

  it('outside a transaction the marks change nothing', async () => {
    await clear();
    await executeFirst(db, db.insertInto('pair_probe').values({ k: 'x', v: null, n: null }));
    await executeLast(db, db.insertInto('pair_probe').values({ k: 'y', v: null, n: null }));
    expect(sent).toEqual([expect.stringMatching(/^insert/), expect.stringMatching(/^insert/)]);
    expect((await rows()).map((r) => r.k)).toEqual(['x', 'y']);
  });
});

describe('the marks on SQLite', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('sqlite', { migrate: false });
    await sql`create table pair_probe (k text primary key, v text, n integer)`.execute(test.database.db);
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('run the statements where they stand', async () => {
    const db = test.database.db as unknown as Kysely<Probe>;
    await db.transaction().execute(async (trx) => {
      await executeFirst(trx, trx.insertInto('pair_probe').values({ k: 'a', v: "it's", n: 1 }));
      expect(await trx.selectFrom('pair_probe').select('k').execute()).toEqual([{ k: 'a' }]);
      await executeLast(trx, trx.updateTable('pair_probe').set({ n: 2 }).where('k', '=', 'a'));
    });
    expect(await db.selectFrom('pair_probe').selectAll().execute()).toEqual([{ k: 'a', v: "it's", n: 2 }]);
  });
});
