/**
 * PostgreSQL: `client.query(text, values)` without a callback (how Kysely calls it) is answered by a promise
 * made here around node-postgres's callback, not by the promise node-postgres makes itself (decision 0776).
 *
 * Measured on the bench's 1,000,000-evaluation database, the board view's window statement (~900 rows) in a
 * loop: with node-postgres's own promise about 4 MB of every young-generation collection's survivors were
 * still alive at the next one and moved to the old generation, and each collection paused the process for
 * 15-20 ms; called with a callback and settled through a plain promise, nothing of the kind survived and
 * the pauses were under 1 ms. Same rows, same errors.
 */
import type pg from 'pg';

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** A call node-postgres answers its own way: with a callback given, or a query object (pg-cursor) that answers itself. */
function answersItself(config: unknown, values: unknown, callback: unknown): boolean {
  if (callback !== undefined || typeof values === 'function') return true;
  if (typeof config === 'string') return false;
  if (typeof config !== 'object' || config === null) return true;
  const given = config as { submit?: unknown; callback?: unknown };
  return typeof given.submit === 'function' || given.callback !== undefined;
}

export function settleQueriesByCallback(client: pg.PoolClient | pg.Client): void {
  const query = client.query.bind(client) as Query;
  (client as { query: Query }).query = (config, values, callback) => {
    if (answersItself(config, values, callback)) return query(config, values, callback);
    return new Promise((resolve, reject) => {
      query(config, values, (error: Error | null, result: unknown) =>
        error ? reject(error) : resolve(result),
      );
    });
  };
}
