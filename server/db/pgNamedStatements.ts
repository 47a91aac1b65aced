/**
 * PostgreSQL: the app's statements go as named prepared statements, one per distinct text and connection,
 * so the server parses and plans each once per connection instead of on every call (docs/decisions/0754).
 * node-postgres sends a named statement's Parse only the first time on a connection; afterwards Bind and
 * Execute alone.
 *
 * Only SELECT, INSERT, UPDATE, DELETE and WITH statements are named, at most NAMED_PER_CONNECTION distinct
 * texts a connection (`in (…)` lists of other lengths are other texts; past the bound they go unnamed, as
 * before). A statement whose result's shape changed under a running server (a migration added a column
 * to a `select *`) fails once with PostgreSQL's "cached plan must not change result type"; its text is
 * then named afresh on that connection, so the next call prepares it again.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

export const NAMED_PER_CONNECTION = 1_000;
const NAMEABLE = /^\s*(select|insert|update|delete|with)\s/i;
/** SQLSTATE 0A000 (feature_not_supported), raised for a kept plan whose result's columns changed. */
const STALE_PLAN = 'cached plan must not change result type';

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes `client.query(text, values)` name its statement (once per client: pg's pool keeps its clients). */
export function nameStatements(client: pg.PoolClient | pg.Client): void {
  const query = client.query.bind(client) as Query;
  const names = new Map<string, string>();
  let renamed = 0;
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= NAMED_PER_CONNECTION || !NAMEABLE.test(text)) return known;
    const name = `cb_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
    return name;
  };
  (client as { query: Query }).query = (config, values, callback) => {
    if (
      typeof config !== 'string' ||
      callback !== undefined ||
      (values !== undefined && !Array.isArray(values))
    )
      return query(config, values, callback);
    const name = nameOf(config);
    if (name === undefined) return query(config, values);
    const ran = query({ name, text: config, values }) as Promise<unknown>;
    return ran.catch((error: unknown) => {
      if (error instanceof Error && error.message.includes(STALE_PLAN)) {
        renamed++;
        names.set(config, `${name}_${renamed}`);
      }
      throw error;
    });
  };
}
