/**
 * What Kysely's SQLite driver is handed in place of the better-sqlite3 database: statements kept prepared
 * by their text, whose rows are read as arrays and made into objects here (docs/decisions/0749).
 */
import type SQLite from 'better-sqlite3';

const STATEMENT_CACHE_SIZE = 500;
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\s/i;

/** The part of a better-sqlite3 statement Kysely's SqliteConnection uses. */
export interface DriverStatement {
  readonly reader: boolean;
  readonly busy: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SQLite.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * A reader's rows come from SQLite as arrays and are made into objects in JavaScript, with the columns'
 * names in order (a later column of the same name wins, as better-sqlite3's own objects do). Objects built
 * by better-sqlite3 through V8's C++ API cost about twice as much: 968 rows of the board view's 10 columns
 * took 2.3 ms as objects, 1.2 ms as arrays and 1.4 ms as arrays made into objects here.
 */
class ArrayRowsStatement implements DriverStatement {
  readonly #statement: SQLite.Statement;
  #names: string[];
  constructor(statement: SQLite.Statement, names: string[]) {
    this.#statement = statement;
    this.#names = names;
  }
  get reader() {
    return true;
  }
  get busy() {
    return this.#statement.busy;
  }
  #object(values: unknown[]): Record<string, unknown> {
    // SQLite prepares a statement again after another connection changed the schema: `select *` may then
    // answer other columns than were named when it was kept.
    if (values.length !== this.#names.length) this.#names = columnNames(this.#statement);
    const names = this.#names;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row;
  }
  all(parameters: readonly unknown[]): unknown[] {
    const rows = this.#statement.all(parameters) as unknown[][];
    const objects = new Array<Record<string, unknown>>(rows.length);
    for (let i = 0; i < rows.length; i++) objects[i] = this.#object(rows[i]!);
    return objects;
  }
  run(parameters: readonly unknown[]): SQLite.RunResult {
    return this.#statement.run(parameters);
  }
  *iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    for (const values of this.#statement.iterate(parameters) as IterableIterator<unknown[]>) {
      yield this.#object(values);
    }
  }
}

const columnNames = (statement: SQLite.Statement) => statement.columns().map((column) => column.name);

function driverStatement(statement: SQLite.Statement): DriverStatement {
  if (!statement.reader) return statement as unknown as DriverStatement;
  const names = columnNames(statement);
  // A column named __proto__ would set the object's prototype here: such a statement keeps SQLite's objects.
  if (names.includes('__proto__')) return statement as unknown as DriverStatement;
  statement.raw(true);
  return new ArrayRowsStatement(statement, names);
}

/**
 * A statement that tells `onCommit` when it ended a transaction that wrote, or wrote outside one (decision
 * 0752: the commit sync). A transaction's own statements are not commits; a rollback after writes is told
 * too (a sync too many, never one too few).
 */
function trackedStatement(statement: DriverStatement, writes: boolean, after: (writes: boolean) => void) {
  return {
    get reader() {
      return statement.reader;
    },
    get busy() {
      return statement.busy;
    },
    all(parameters: readonly unknown[]) {
      const rows = statement.all(parameters);
      after(writes);
      return rows;
    },
    run(parameters: readonly unknown[]) {
      const result = statement.run(parameters);
      after(writes);
      return result;
    },
    *iterate(parameters: readonly unknown[]) {
      try {
        yield* statement.iterate(parameters);
      } finally {
        after(writes);
      }
    },
  } satisfies DriverStatement;
}

/**
 * Kysely's SQLite driver prepares every statement anew; preparing was 6% of a get-boards request's CPU
 * (bench/README.md). The app runs a few hundred distinct statements, so they are kept, prepared, by their
 * text (the oldest dropped past STATEMENT_CACHE_SIZE: `in (…)` lists of other lengths are other texts).
 * A statement still being iterated is never handed out twice. With `onCommit`, every statement tells it of
 * the commits it makes.
 */
export function driverDatabase(sqlite: SQLite.Database, onCommit?: () => void) {
  const statements = new Map<string, DriverStatement>();
  let wrote = false;
  const after = (writes: boolean) => {
    if (writes) wrote = true;
    if (wrote && !sqlite.inTransaction) {
      wrote = false;
      onCommit!();
    }
  };
  const make = (text: string): DriverStatement => {
    const prepared = sqlite.prepare(text);
    const statement = driverStatement(prepared);
    return onCommit ? trackedStatement(statement, !prepared.readonly, after) : statement;
  };
  return {
    close: () => sqlite.close(),
    prepare(text: string): DriverStatement {
      const cached = statements.get(text);
      if (cached && !cached.busy) return cached;
      // A change of schema through this connection (migrations, tests' tables) forgets every kept statement,
      // and with them the columns their rows were named by. It is never kept, so a kept text is no such change.
      if (SCHEMA_CHANGE.test(text)) {
        statements.clear();
        return make(text);
      }
      const statement = make(text);
      if (!cached) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}
