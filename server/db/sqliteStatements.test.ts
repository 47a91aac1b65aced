/**
 * The statements Kysely runs on SQLite (sqliteStatements.ts): rows read as arrays and made into objects must
 * be exactly the objects better-sqlite3 makes itself, through Kysely and directly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driverDatabase } from './sqliteStatements.ts';

describe('SQLite statements read as arrays', () => {
  let sqlite: SQLite.Database;
  let plain: SQLite.Database;
  let db: Kysely<{ things: { id: number; name: string | null; size: number | null; data: Buffer | null } }>;

  beforeEach(async () => {
    sqlite = new SQLite(':memory:');
    db = new Kysely({ dialect: new SqliteDialect({ database: driverDatabase(sqlite) }) });
    await sql`create table things (id integer primary key, name text, size real, data blob)`.execute(db);
    await db
      .insertInto('things')
      .values([
        { id: 1, name: 'one', size: 1.5, data: Buffer.from([1, 2]) },
        { id: 2, name: null, size: null, data: null },
        { id: 3, name: 'three', size: 3, data: Buffer.alloc(0) },
      ])
      .execute();
    plain = new SQLite(':memory:');
  });

  afterEach(async () => {
    await db.destroy();
    plain.close();
  });

  /** What better-sqlite3 itself answers for the same statement on the same connection. */
  const ownObjects = (text: string, ...parameters: unknown[]) => {
    const statement = sqlite.prepare(text);
    return statement.all(...parameters);
  };

  it('answers the objects better-sqlite3 makes, every type, in order', async () => {
    const rows = await db.selectFrom('things').selectAll().orderBy('id').execute();
    expect(rows).toEqual(ownObjects('select * from things order by id'));
    expect(rows).toEqual([
      { id: 1, name: 'one', size: 1.5, data: Buffer.from([1, 2]) },
      { id: 2, name: null, size: null, data: null },
      { id: 3, name: 'three', size: 3, data: Buffer.alloc(0) },
    ]);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'name', 'size', 'data']);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });

  it('names columns by their aliases, a later column of the same name winning', async () => {
    const text = 'select id as a, name as b, size as a from things where id = ?';
    const { rows } = await sql.raw<Record<string, unknown>>(text.replace('?', '1')).execute(db);
    expect(rows).toEqual(ownObjects(text, 1));
    expect(rows).toEqual([{ a: 1.5, b: 'one' }]);
  });

  it('keeps SQLite’s own objects for a column named __proto__, which would set the prototype', async () => {
    const { rows } = await sql<
      Record<string, unknown>
    >`select id as "__proto__", name from things where id = 1`.execute(db);
    expect(rows).toEqual(ownObjects('select id as "__proto__", name from things where id = 1'));
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });

  it('answers the rows of insert … returning, and the changes of a write', async () => {
    const inserted = await db
      .insertInto('things')
      .values({ id: 4, name: 'four', size: 4, data: null })
      .returning(['id', 'name'])
      .execute();
    expect(inserted).toEqual([{ id: 4, name: 'four' }]);
    const updated = await db.updateTable('things').set({ size: 0 }).where('id', '>', 2).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    expect(await db.selectFrom('things').select('size').where('id', '>', 2).execute()).toEqual([
      { size: 0 },
      { size: 0 },
    ]);
  });

  it('streams objects', async () => {
    const seen: unknown[] = [];
    for await (const row of db.selectFrom('things').select(['id', 'name']).orderBy('id').stream()) {
      seen.push(row);
    }
    expect(seen).toEqual([
      { id: 1, name: 'one' },
      { id: 2, name: null },
      { id: 3, name: 'three' },
    ]);
  });

  it('never hands out a statement still being iterated', () => {
    const database = driverDatabase(plain);
    const text = 'select value from json_each(?)';
    const first = database.prepare(text);
    const rows = first.iterate(['[1,2]']);
    expect(rows.next().value).toEqual({ value: 1 });
    const second = database.prepare(text);
    expect(second).not.toBe(first);
    expect(second.all(['[3]'])).toEqual([{ value: 3 }]);
    expect(rows.next().value).toEqual({ value: 2 });
    rows.return?.();
    expect(database.prepare(text)).toBe(first);
  });

  it('names the columns again after the schema changed, here or on another connection', async () => {
    const everything = () => db.selectFrom('things').selectAll().where('id', '=', 1).execute();
    expect(Object.keys((await everything())[0]!)).toEqual(['id', 'name', 'size', 'data']);
    // Remade here with the same number of columns in another order: the kept statements are forgotten.
    await sql`create table things_new (data blob, size real, name text, id integer primary key)`.execute(db);
    await sql`insert into things_new select data, size, name, id from things`.execute(db);
    await sql`drop table things`.execute(db);
    await sql`alter table things_new rename to things`.execute(db);
    expect(await everything()).toEqual([{ data: Buffer.from([1, 2]), size: 1.5, name: 'one', id: 1 }]);
    expect(Object.keys((await everything())[0]!)).toEqual(['data', 'size', 'name', 'id']);
  });

  it('follows a column another connection added', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'checkboard-statements-'));
    try {
      const file = path.join(dir, 'shared.sqlite');
      const mine = new Kysely<{ t: { id: number } }>({
        dialect: new SqliteDialect({ database: driverDatabase(new SQLite(file)) }),
      });
      await sql`create table t (id integer primary key)`.execute(mine);
      await sql`insert into t (id) values (1)`.execute(mine);
      expect(await mine.selectFrom('t').selectAll().execute()).toEqual([{ id: 1 }]);
      const other = new SQLite(file);
      other.exec(`alter table t add column label text default 'x'`);
      other.close();
      expect(await mine.selectFrom('t').selectAll().execute()).toEqual([{ id: 1, label: 'x' }]);
      await mine.destroy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps a statement prepared for its text, the oldest dropped past 500 texts', () => {
    const database = driverDatabase(plain);
    const first = database.prepare('select 1 as n');
    expect(database.prepare('select 1 as n')).toBe(first);
    expect(first.all([])).toEqual([{ n: 1 }]);
    for (let i = 2; i <= 501; i++) database.prepare(`select ${i} as n`);
    const again = database.prepare('select 1 as n');
    expect(again).not.toBe(first);
    expect(again.all([])).toEqual([{ n: 1 }]);
    expect(database.prepare('select 501 as n')).toBe(database.prepare('select 501 as n'));
  });
});
