/**
 * A statement Kysely builds and compiles once per dialect, then runs with each call's parameters
 * (docs/decisions/0753). Kysely builds an immutable tree and compiles it to SQL on every call: for the few
 * statements nearly every request runs (the session's lookup, get-boards' two) that was about a tenth of a
 * request's CPU. The SQL text is the same either way, so SQLite's kept statements (sqliteStatements.ts)
 * serve it as before.
 *
 *   const boardsOf = preparedQuery((db, p: { orgId: number }) =>
 *     db.selectFrom('boards').select('id').where('org_id', '=', p.orgId));
 *   const rows = await boardsOf.all(db, { orgId });
 *
 * `build` is called once per dialect with stand-ins for the parameters: each must reach the statement as a
 * value, unchanged (no arithmetic on it, no `in` list, nothing inlined); anything else is refused when the
 * statement is first compiled, so a test of the caller finds it.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import { dialectOf, type DialectName } from './dialect.ts';
import type { Db } from './index.ts';

type Parameter = string | number | null;

const STAND_IN = '\u0000checkboard-parameter:';

type Slot = { name: string } | { value: unknown };

interface Compiled<R> {
  query: CompiledQuery<R>;
  slots: Slot[];
}

export interface PreparedQuery<P, R> {
  /** Every row. */
  all(db: Db, parameters: P): Promise<R[]>;
  /** The first row, or undefined. */
  first(db: Db, parameters: P): Promise<R | undefined>;
}

export function preparedQuery<P extends Record<string, Parameter>, R>(
  build: (db: Db, parameters: P) => Compilable<R>,
): PreparedQuery<P, R> {
  const byDialect = new Map<DialectName, Compiled<R>>();

  const compile = (db: Db, dialect: DialectName): Compiled<R> => {
    const named = new Set<string>();
    const standIns = new Proxy({} as P, {
      get: (_target, key) => {
        if (typeof key !== 'string') return undefined;
        named.add(key);
        return STAND_IN + key;
      },
    });
    const query = build(db, standIns).compile();
    if (query.sql.includes(STAND_IN))
      throw new Error(`a prepared query's parameter was inlined: ${query.sql}`);
    const slots = query.parameters.map((value): Slot => {
      if (typeof value === 'string' && value.includes(STAND_IN)) {
        const name = value.slice(STAND_IN.length);
        if (!value.startsWith(STAND_IN) || !named.has(name))
          throw new Error(`a prepared query's parameter was changed on its way in: ${query.sql}`);
        return { name };
      }
      return { value };
    });
    for (const name of named) {
      if (!slots.some((slot) => 'name' in slot && slot.name === name))
        throw new Error(`a prepared query's parameter ${name} did not reach the statement: ${query.sql}`);
    }
    const compiled = { query, slots };
    byDialect.set(dialect, compiled);
    return compiled;
  };

  const all = async (db: Db, parameters: P): Promise<R[]> => {
    const dialect = dialectOf(db);
    const { query, slots } = byDialect.get(dialect) ?? compile(db, dialect);
    const values = slots.map((slot) => ('name' in slot ? parameters[slot.name] : slot.value));
    const result = await db.executeQuery<R>({ ...query, parameters: values });
    return result.rows;
  };

  return {
    all,
    first: async (db, parameters) => (await all(db, parameters))[0],
  };
}
