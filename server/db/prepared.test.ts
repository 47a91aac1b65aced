/**
 * preparedQuery (decision 0753): compiled once per dialect, run with each call's parameters, in and out of
 * transactions; a parameter that would not reach the statement unchanged is refused at its first compile.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/databases.ts';
import type { Db } from './index.ts';
import { preparedQuery } from './prepared.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`preparedQuery [${dialect}]`, () => {
    let test: TestDatabase;
    let db: Db;
    let orgs: number[];
    beforeAll(async () => {
      test = await createTestDatabase(dialect);
      db = test.database.db;
      orgs = [];
      for (const name of ['Alpha', 'Beta', 'Gamma']) {
        const row = await db
          .insertInto('organizations')
          .values({
            name,
            name_key: name.toLowerCase(),
            subscription_status: 'active',
            num_departments: 1,
            created_at: 1,
            updated_at: 1,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        orgs.push(row.id);
      }
    });
    afterAll(async () => {
      await test?.drop();
    });

    const named = preparedQuery((q, p: { id: number; name: string }) =>
      q
        .selectFrom('organizations')
        .select(['id', 'name'])
        .where('id', '=', p.id)
        .where('name', '=', p.name)
        .where('subscription_status', '=', 'active'),
    );

    it('answers each call with its own parameters, constants kept', async () => {
      expect(await named.all(db, { id: orgs[0]!, name: 'Alpha' })).toEqual([{ id: orgs[0], name: 'Alpha' }]);
      expect(await named.first(db, { id: orgs[1]!, name: 'Beta' })).toEqual({ id: orgs[1], name: 'Beta' });
      expect(await named.first(db, { id: orgs[1]!, name: 'Alpha' })).toBeUndefined();
    });

    it('runs the same SQL as the built query, once compiled', async () => {
      const seen: string[] = [];
      const logged = await createTestDatabase(dialect, {
        onQuery: (text) => seen.push(text),
      });
      try {
        const built = logged.database.db
          .selectFrom('organizations')
          .select(['id', 'name'])
          .where('id', '=', 1)
          .where('name', '=', 'x')
          .where('subscription_status', '=', 'active')
          .compile().sql;
        await named.all(logged.database.db, { id: 1, name: 'x' });
        await named.all(logged.database.db, { id: 2, name: 'y' });
        expect(seen.filter((text) => text === built)).toHaveLength(2);
      } finally {
        await logged.drop();
      }
    });

    it('runs in a transaction, seeing its writes', async () => {
      await db
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('organizations')
            .set({ name: 'Alpha Two' })
            .where('id', '=', orgs[0]!)
            .execute();
          expect(await named.first(trx, { id: orgs[0]!, name: 'Alpha Two' })).toEqual({
            id: orgs[0],
            name: 'Alpha Two',
          });
          throw new Error('roll back');
        })
        .catch((error: Error) => expect(error.message).toBe('roll back'));
      expect(await named.first(db, { id: orgs[0]!, name: 'Alpha' })).toEqual({ id: orgs[0], name: 'Alpha' });
    });

    it('takes a null as a value like any other', async () => {
      const byStatus = preparedQuery((q, p: { status: string | null }) =>
        q
          .selectFrom('organizations')
          .select('id')
          .where(sql<boolean>`subscription_status is not distinct from ${p.status}`),
      );
      expect((await byStatus.all(db, { status: null })).length).toBe(0);
      expect((await byStatus.all(db, { status: 'active' })).length).toBeGreaterThanOrEqual(3);
    });

    it('refuses a parameter that is changed, inlined or unused, at its first compile', async () => {
      const changed = preparedQuery((q, p: { id: number }) =>
        q
          .selectFrom('organizations')
          .select('id')
          .where('id', '=', `${p.id}0` as unknown as number),
      );
      await expect(changed.all(db, { id: 1 })).rejects.toThrow(/changed on its way in/);
      const inlined = preparedQuery((q, p: { name: string }) =>
        q.selectFrom('organizations').select('id').where('name', '=', sql.lit(p.name)),
      );
      await expect(inlined.all(db, { name: 'Alpha' })).rejects.toThrow(/was inlined/);
      const unused = preparedQuery((q, p: { id: number }) =>
        q
          .selectFrom('organizations')
          .select('id')
          .where('id', '=', p.id > 0 ? 1 : 2),
      );
      await expect(unused.all(db, { id: 1 })).rejects.toThrow(/did not reach the statement/);
    });
  });
}
