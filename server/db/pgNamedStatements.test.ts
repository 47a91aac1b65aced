/**
 * Named statements on PostgreSQL (decisions 0754, 0758): a statement that comes again is prepared once per
 * connection; other statements, texts used once, long texts and texts past the bounds go unnamed; and a
 * statement whose result changed shape under the server fails once, then is prepared again.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { openDatabase } from './index.ts';
import { NAMED_PER_CONNECTION, NAMED_TEXT_BUDGET, NAMED_TEXT_MAX } from './pgNamedStatements.ts';

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres('named statements [postgres]', () => {
  let test: TestDatabase;
  let db: Kysely<unknown>;
  beforeAll(async () => {
    // One connection, so every statement below shares its prepared statements.
    test = await createTestDatabase('postgres', { migrate: false });
    db = test.database.db as unknown as Kysely<unknown>;
    await sql`create table named_probe (a integer not null)`.execute(db);
    await sql`insert into named_probe (a) values (1), (2)`.execute(db);
  });
  afterAll(async () => {
    await test?.drop();
  });

  /** The statements prepared on the connection that runs this, with their texts. */
  const prepared = (conn: Kysely<unknown>) =>
    sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`
      .execute(conn)
      .then((r) => r.rows);

  it('prepares a statement from its second call, once per connection, and runs it with each call’s values', async () => {
    await db.connection().execute(async (conn) => {
      const select = (n: number) =>
        sql<{ a: number }>`select a from named_probe where a = ${n}`.execute(conn).then((r) => r.rows);
      const mine = async () =>
        (await prepared(conn)).filter((p) => p.statement.includes('from named_probe where a ='));
      expect(await select(1)).toEqual([{ a: 1 }]);
      // Seen once: nothing kept on the server.
      expect(await mine()).toEqual([]);
      expect(await select(2)).toEqual([{ a: 2 }]);
      expect(await select(1)).toEqual([{ a: 1 }]);
      const kept = await mine();
      expect(kept).toHaveLength(1);
      expect(kept[0]!.name).toMatch(/^cb_/);
    });
  });

  it('leaves other statements unnamed, and transactions work as before', async () => {
    await db.connection().execute(async (conn) => {
      await sql`set local statement_timeout = 1000`.execute(conn);
      await conn.transaction().execute(async (trx) => {
        await sql`insert into named_probe (a) values (${3})`.execute(trx);
        await sql`insert into named_probe (a) values (${4})`.execute(trx);
      });
      const texts = (await prepared(conn)).map((p) => p.statement);
      expect(texts.some((t) => t.startsWith('set local'))).toBe(false);
      expect(texts.some((t) => t.startsWith('begin'))).toBe(false);
      expect(texts.some((t) => t.startsWith('insert into named_probe'))).toBe(true);
    });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from named_probe`.execute(db);
    expect(rows[0]!.n).toBe(4);
  });

  it('sends every statement unnamed when PG_NAMED_STATEMENTS=false', async () => {
    const unnamed = openDatabase({ kind: 'postgres', url: test.location, namedStatements: false });
    try {
      const conn = unnamed.db as unknown as Kysely<unknown>;
      await conn.connection().execute(async (c) => {
        expect((await sql<{ a: number }>`select a from named_probe where a = ${1}`.execute(c)).rows).toEqual([
          { a: 1 },
        ]);
        expect(await prepared(c)).toEqual([]);
      });
    } finally {
      await unnamed.close();
    }
  });

  it('prepares again a statement whose result changed shape, after one failure', async () => {
    await db.connection().execute(async (conn) => {
      const all = () => sql<Record<string, number>>`select * from named_probe where a = ${1}`.execute(conn);
      expect((await all()).rows).toEqual([{ a: 1 }]);
      expect((await all()).rows).toEqual([{ a: 1 }]);
      await sql`alter table named_probe add column b integer not null default 7`.execute(conn);
      await expect(all()).rejects.toThrow(/cached plan must not change result type/);
      expect((await all()).rows).toEqual([{ a: 1, b: 7 }]);
    });
  });

  it('names at most NAMED_PER_CONNECTION texts a connection, then sends the rest unnamed', async () => {
    // A database of its own: the connection above keeps what it prepared.
    const own = await createTestDatabase('postgres', { migrate: false });
    try {
      await own.database.db.connection().execute(async (conn) => {
        for (let i = 0; i < NAMED_PER_CONNECTION + 5; i++)
          for (let call = 0; call < 2; call++)
            await sql`select ${sql.raw(String(i))} + ${1}::int as n`.execute(conn);
        expect(await prepared(conn as unknown as Kysely<unknown>)).toHaveLength(NAMED_PER_CONNECTION);
      });
    } finally {
      await own.drop();
    }
  });
  /** A generated statement of literal ranges, as a report's, of `count` rows. */
  const ranges = (count: number) =>
    sql<{ n: number }>`with r(lo, hi) as (values ${sql.raw(
      Array.from({ length: count }, (_, i) => `(${i}, ${i + 1})`).join(', '),
    )}) select count(*)::int as n from r where lo < ${count + 1}`;

  it('names a report’s long text that comes again, and never one longer than NAMED_TEXT_MAX', async () => {
    await db.connection().execute(async (conn) => {
      const kept = async (count: number) =>
        (await prepared(conn)).filter(
          (p) =>
            p.statement.startsWith(`with r(lo, hi) as (values (0, 1)`) &&
            p.statement.includes(`(${count - 1}, ${count})) select`),
        );
      const report = ranges(3_000);
      expect(report.compile(conn).sql.length).toBeGreaterThan(30_000);
      expect(report.compile(conn).sql.length).toBeLessThanOrEqual(NAMED_TEXT_MAX);
      for (let call = 0; call < 3; call++) expect((await report.execute(conn)).rows).toEqual([{ n: 3_000 }]);
      expect(await kept(3_000)).toHaveLength(1);

      const long = ranges(7_000);
      expect(long.compile(conn).sql.length).toBeGreaterThan(NAMED_TEXT_MAX);
      for (let call = 0; call < 3; call++) expect((await long.execute(conn)).rows).toEqual([{ n: 7_000 }]);
      expect(await kept(7_000)).toEqual([]);
    });
  });

  it('names at most NAMED_TEXT_BUDGET characters of text a connection', async () => {
    const own = await createTestDatabase('postgres', { migrate: false });
    try {
      await own.database.db.connection().execute(async (conn) => {
        // Texts just under NAMED_TEXT_MAX, each called twice: the budget is reached before the count.
        const padding = 'x'.repeat(NAMED_TEXT_MAX - 100);
        const texts = Math.ceil(NAMED_TEXT_BUDGET / (NAMED_TEXT_MAX - 60)) + 5;
        for (let i = 0; i < texts; i++)
          for (let call = 0; call < 2; call++)
            await sql`select ${sql.raw(String(i))} + ${1}::int as n, ${sql.lit(padding)} as pad`.execute(
              conn,
            );
        const kept = await prepared(conn as unknown as Kysely<unknown>);
        expect(kept.length).toBeGreaterThan(0);
        expect(kept.length).toBeLessThan(texts);
        const keptChars = kept.reduce((sum, p) => sum + p.statement.length, 0);
        expect(keptChars).toBeLessThanOrEqual(NAMED_TEXT_BUDGET);
        expect(keptChars).toBeGreaterThan(NAMED_TEXT_BUDGET - NAMED_TEXT_MAX);
      });
    } finally {
      await own.drop();
    }
  });
});
