/**
 * writeTogether (decision 0755): every write is applied once, all or nothing in the caller's transaction;
 * on PostgreSQL in one statement, on SQLite one after another.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/databases.ts';
import type { Db } from './index.ts';
import { writeTogether } from './together.ts';

interface Probe {
  together_a: { n: number };
  together_b: { n: number; total: number };
}

for (const dialect of TEST_DIALECTS) {
  describe(`writeTogether [${dialect}]`, () => {
    let test: TestDatabase;
    let db: Kysely<Probe>;
    const statements: string[] = [];
    beforeAll(async () => {
      test = await createTestDatabase(dialect, { migrate: false, onQuery: (text) => statements.push(text) });
      db = test.database.db as unknown as Kysely<Probe>;
      await sql`create table together_a (n integer not null)`.execute(db);
      await sql`create table together_b (n integer primary key, total integer not null)`.execute(db);
    });
    afterAll(async () => {
      await test?.drop();
    });
    beforeEach(async () => {
      await sql`delete from together_a`.execute(db);
      await sql`delete from together_b`.execute(db);
      statements.length = 0;
    });

    const rows = async () => ({
      a: (await db.selectFrom('together_a').select('n').orderBy('n').execute()).map((r) => r.n),
      b: await db.selectFrom('together_b').selectAll().orderBy('n').execute(),
    });
    const add = (q: Kysely<Probe>, n: number, total: number) =>
      q
        .insertInto('together_b')
        .values({ n, total })
        .onConflict((oc) =>
          oc
            .column('n')
            .doUpdateSet((eb) => ({ total: eb('together_b.total', '+', eb.ref('excluded.total')) })),
        );

    it('applies every write once, in one statement on PostgreSQL', async () => {
      await writeTogether(db as unknown as Db, [
        db.insertInto('together_a').values([{ n: 1 }, { n: 2 }]),
        db.insertInto('together_a').values({ n: 3 }),
        add(db, 1, 5),
        add(db, 2, 7),
      ]);
      expect(await rows()).toEqual({
        a: [1, 2, 3],
        b: [
          { n: 1, total: 5 },
          { n: 2, total: 7 },
        ],
      });
      const writes = statements.filter((text) => /^(with|insert)/i.test(text));
      expect(writes).toHaveLength(dialect === 'postgres' ? 1 : 4);
      // Upserts together add up as they would one after another.
      await writeTogether(db as unknown as Db, [db.insertInto('together_a').values({ n: 4 }), add(db, 1, 1)]);
      expect((await rows()).b).toEqual([
        { n: 1, total: 6 },
        { n: 2, total: 7 },
      ]);
    });

    it('writes all or nothing in the caller’s transaction', async () => {
      await expect(
        db.transaction().execute(async (trx) => {
          await writeTogether(trx as unknown as Db, [
            trx.insertInto('together_a').values({ n: 1 }),
            add(trx, 1, 5),
            // Fails: the same key twice in one plain insert.
            trx.insertInto('together_b').values([
              { n: 9, total: 1 },
              { n: 9, total: 1 },
            ]),
          ]);
        }),
      ).rejects.toThrow();
      expect(await rows()).toEqual({ a: [], b: [] });
    });

    it('makes a single write, or none, as itself', async () => {
      await writeTogether(db as unknown as Db, []);
      await writeTogether(db as unknown as Db, [db.insertInto('together_a').values({ n: 8 })]);
      expect((await rows()).a).toEqual([8]);
      expect(statements.filter((text) => /^with/i.test(text))).toHaveLength(0);
    });
  });
}
