/**
 * writeTogether (decision 0755): every write is applied once, all or nothing in the caller's transaction;
 * on PostgreSQL in one statement, on SQLite one after another; and claimTogether (decision 0782), a claim with
 * the writes that follow from it.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/databases.ts';
import type { Db } from './index.ts';
import { claimTogether, writeTogether } from './together.ts';

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

for (const dialect of TEST_DIALECTS) {
  describe(`claimTogether [${dialect}]`, () => {
    let test: TestDatabase;
    let db: Kysely<ClaimProbe>;
    const statements: string[] = [];
    beforeAll(async () => {
      test = await createTestDatabase(dialect, { migrate: false, onQuery: (text) => statements.push(text) });
      db = test.database.db as unknown as Kysely<ClaimProbe>;
      await sql`create table claim_jobs (id integer primary key, done integer)`.execute(db);
      await sql`create table claim_marks (job integer primary key)`.execute(db);
      await sql`create table claim_log (job integer not null)`.execute(db);
    });
    afterAll(async () => {
      await test?.drop();
    });
    beforeEach(async () => {
      await sql`delete from claim_jobs`.execute(db);
      await sql`delete from claim_marks`.execute(db);
      await sql`delete from claim_log`.execute(db);
      await db.insertInto('claim_jobs').values({ id: 1, done: null }).execute();
      statements.length = 0;
    });

    const claimJob = (q: Kysely<ClaimProbe>) =>
      q
        .updateTable('claim_jobs')
        .set({ done: 1 })
        .where('id', '=', 1)
        .where('done', 'is', null)
        .returning('id');
    const follow = (q: Kysely<ClaimProbe>) => [
      q.insertInto('claim_log').values({ job: 1 }),
      q
        .insertInto('claim_marks')
        .values({ job: 1 })
        .onConflict((oc) => oc.column('job').doNothing()),
    ];
    /** Claims job 1 with its writes in a transaction that fails when the claim took nothing. */
    const complete = (q: Kysely<ClaimProbe>) =>
      q.transaction().execute(async (trx) => {
        const claimed = await claimTogether(trx as unknown as Db, claimJob(trx), follow(trx));
        if (claimed !== 1) throw new Error('taken');
        return claimed;
      });
    const state = async () => ({
      jobs: await db.selectFrom('claim_jobs').selectAll().execute(),
      log: (await db.selectFrom('claim_log').select('job').execute()).length,
      marks: (await db.selectFrom('claim_marks').select('job').execute()).length,
    });

    it('makes the claim and its writes, in one statement on PostgreSQL', async () => {
      expect(await complete(db)).toBe(1);
      expect(await state()).toEqual({ jobs: [{ id: 1, done: 1 }], log: 1, marks: 1 });
      const writes = statements.filter((text) => /^(with|insert|update)/i.test(text));
      expect(writes).toHaveLength(dialect === 'postgres' ? 1 : 3);
    });

    it('a claim that takes nothing, in a transaction that then fails, leaves nothing written', async () => {
      expect(await complete(db)).toBe(1);
      await expect(complete(db)).rejects.toThrow('taken');
      expect(await state()).toEqual({ jobs: [{ id: 1, done: 1 }], log: 1, marks: 1 });
    });

    if (dialect === 'postgres') {
      it('of two claims racing, the second waits for the first to commit, takes nothing and writes nothing', async () => {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let claimedFirst!: () => void;
        const firstClaimed = new Promise<void>((resolve) => (claimedFirst = resolve));
        const first = db.transaction().execute(async (trx) => {
          const claimed = await claimTogether(trx as unknown as Db, claimJob(trx), follow(trx));
          claimedFirst();
          await held;
          return claimed;
        });
        await firstClaimed;
        const second = complete(db).then(
          () => 'claimed',
          (error: Error) => error.message,
        );
        // The second is waiting on the first's row lock.
        await new Promise((resolve) => setTimeout(resolve, 100));
        release();
        expect(await first).toBe(1);
        expect(await second).toBe('taken');
        expect(await state()).toEqual({ jobs: [{ id: 1, done: 1 }], log: 1, marks: 1 });
      });
    }
  });
}

interface ClaimProbe {
  claim_jobs: { id: number; done: number | null };
  claim_marks: { job: number };
  claim_log: { job: number };
}
