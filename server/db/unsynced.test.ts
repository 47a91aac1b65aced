/**
 * unsynced (decision 0752): on SQLite the work's commits run at `synchronous = NORMAL` on a connection no
 * other caller uses meanwhile, and the level is back afterwards, whatever the work did; on both databases
 * the work's transaction commits or rolls back as usual.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/databases.ts';
import { unsynced } from './unsynced.ts';

const FULL = 2;
const NORMAL = 1;

async function levelOf(db: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
  return Number(rows[0]!.synchronous);
}

for (const dialect of TEST_DIALECTS) {
  describe(`unsynced [${dialect}]`, () => {
    let test: TestDatabase;
    let db: Kysely<unknown>;
    beforeAll(async () => {
      test = await createTestDatabase(dialect, { migrate: false, sqliteFile: true });
      db = test.database.db as unknown as Kysely<unknown>;
      await sql`create table unsynced_probe (n integer not null)`.execute(db);
    });
    afterAll(async () => {
      await test?.drop();
    });
    const count = async () =>
      Number((await sql<{ n: number }>`select count(*) as n from unsynced_probe`.execute(db)).rows[0]!.n);

    it("commits the work's transaction and answers what it answers", async () => {
      const before = await count();
      const answer = await unsynced(db, (c) =>
        c.transaction().execute(async (trx) => {
          await sql`insert into unsynced_probe (n) values (1), (2)`.execute(trx);
          return 'done';
        }),
      );
      expect(answer).toBe('done');
      expect(await count()).toBe(before + 2);
    });

    it('rolls back a failed transaction and passes the failure on', async () => {
      const before = await count();
      await expect(
        unsynced(db, (c) =>
          c.transaction().execute(async (trx) => {
            await sql`insert into unsynced_probe (n) values (3)`.execute(trx);
            throw new Error('undo');
          }),
        ),
      ).rejects.toThrow('undo');
      expect(await count()).toBe(before);
    });

    if (dialect === 'sqlite') {
      it('runs the work unsynced and gives the level back, also after a failure', async () => {
        expect(await levelOf(db)).toBe(FULL);
        expect(await unsynced(db, (c) => levelOf(c))).toBe(NORMAL);
        expect(await levelOf(db)).toBe(FULL);
        await expect(
          unsynced(db, async () => {
            throw new Error('failed');
          }),
        ).rejects.toThrow('failed');
        expect(await levelOf(db)).toBe(FULL);
      });

      it("keeps the connection for the work: another caller's statement waits and runs synced", async () => {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        const order: string[] = [];
        const work = unsynced(db, async (c) => {
          order.push('work started');
          // The work waits on something else (a timer here): the event loop turns meanwhile.
          await held;
          const level = await levelOf(c);
          order.push('work done');
          return level;
        });
        await new Promise((resolve) => setTimeout(resolve, 10));
        const other = levelOf(db).then((level) => {
          order.push('other ran');
          return level;
        });
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(order).toEqual(['work started']);
        release();
        expect(await work).toBe(NORMAL);
        expect(await other).toBe(FULL);
        expect(order).toEqual(['work started', 'work done', 'other ran']);
      });
    }
  });
}
