/**
 * PostgreSQL: the app's statements go as named prepared statements, one per distinct text and connection,
 * so the server parses and plans each once per connection instead of on every call (docs/decisions/0754).
 * node-postgres sends a named statement's Parse only the first time on a connection; afterwards Bind and
 * Execute alone.
 *
 * Only SELECT, INSERT, UPDATE, DELETE and WITH statements are named, and only those that come again: a text
 * is named from its second call on a connection (decision 0758). PostgreSQL keeps a named statement's parse
 * tree in the connection's memory until it closes, about 40 times the text's size (a report's 42 KB
 * statement of literal ranges held 1.6 MB), so a text used once, or longer than NAMED_TEXT_MAX, is never
 * named, and a connection names at most NAMED_PER_CONNECTION texts and NAMED_TEXT_BUDGET characters of them
 * (`in (…)` lists of other lengths are other texts); the rest go unnamed, as node-postgres sends them. The
 * budget is not given back: a connection whose budget went to texts no longer used names no more (the pool
 * closes idle connections after 10 s, so quiet hours renew them).
 * A statement whose result's shape changed under a running server (a migration added a column to a
 * `select *`) fails once with PostgreSQL's "cached plan must not change result type"; its text is then
 * named afresh on that connection, so the next call prepares it again.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

export const NAMED_PER_CONNECTION = 1_000;
/**
 * The longest text named. Long texts are generated ones (lists of literals: a report's ranges made 40 KB
 * before decision 0759); one that comes again is still worth naming, parsed once instead of on every call.
 */
export const NAMED_TEXT_MAX = 65_536;
/** The characters of named text a connection keeps: about 40 MB of PostgreSQL's memory at most. */
export const NAMED_TEXT_BUDGET = 1_000_000;
/** How many texts seen once a connection remembers (by hash), waiting for their second call. */
const SEEN_ONCE_MAX = 2_000;
const NAMEABLE = /^\s*(select|insert|update|delete|with)\s/i;
/** SQLSTATE 0A000 (feature_not_supported), raised for a kept plan whose result's columns changed. */
const STALE_PLAN = 'cached plan must not change result type';

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes `client.query(text, values)` name its statement (once per client: pg's pool keeps its clients). */
export function nameStatements(client: pg.PoolClient | pg.Client): void {
  const query = client.query.bind(client) as Query;
  const names = new Map<string, string>();
  const seenOnce = new Set<string>();
  let namedChars = 0;
  let renamed = 0;
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (
      known !== undefined ||
      text.length > NAMED_TEXT_MAX ||
      names.size >= NAMED_PER_CONNECTION ||
      namedChars + text.length > NAMED_TEXT_BUDGET ||
      !NAMEABLE.test(text) ||
      // Several statements in one text (pgTransactions.ts) cannot be prepared, and carry literals.
      text.includes(';')
    )
      return known;
    const hash = createHash('sha1').update(text).digest('base64url');
    // Its first call goes unnamed: a text that never comes again costs the server nothing kept.
    if (!seenOnce.delete(hash)) {
      if (seenOnce.size >= SEEN_ONCE_MAX) seenOnce.clear();
      seenOnce.add(hash);
      return undefined;
    }
    const name = `cb_${hash}`;
    names.set(text, name);
    namedChars += text.length;
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
