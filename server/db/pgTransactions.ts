/**
 * PostgreSQL: a transaction's BEGIN travels with its first statement, and its COMMIT with its last, where
 * the caller marks them (docs/decisions/0782): each pair is one round trip instead of two. A state-changing
 * call's transaction starts by taking its Idempotency-Key and ends by storing its answer (idempotency.ts),
 * so of add-results' statements two fewer go to the server one at a time.
 *
 * The pair goes as one simple query, `begin; <statement>` or `<statement>; commit`, the marked statement's
 * parameters written into its text as literals (pg's escapeLiteral). Only a statement built by Kysely's
 * query builder is marked (its text holds no literal of its own), and only one whose parameters are
 * strings, finite numbers, booleans or null is sent so; anything else goes as before, BEGIN and COMMIT on
 * their own. Its answer is not read: `executeFirst` and `executeLast` answer nothing.
 *
 * The BEGIN waits for the transaction's first statement; a transaction that runs none sends neither BEGIN
 * nor COMMIT. On SQLite (a statement is a function call, not a round trip) the marks change nothing.
 */
import {
  CompiledQuery,
  PostgresDialect,
  PostgresDriver,
  type Compilable,
  type DatabaseConnection,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';

/** A transaction (Kysely's, typed with any tables), as far as running a compiled statement goes. */
interface Runs {
  executeQuery(query: CompiledQuery): Promise<unknown>;
}

const firstStatements = new WeakSet<CompiledQuery>();
const lastStatements = new WeakSet<CompiledQuery>();

/** Runs a transaction's first statement: on PostgreSQL sent with its BEGIN. */
export async function executeFirst(trx: Runs, query: Compilable): Promise<void> {
  const compiled = query.compile();
  firstStatements.add(compiled);
  await trx.executeQuery(compiled);
}

/**
 * Runs a transaction's last statement: on PostgreSQL sent with its COMMIT, so its failure fails the commit
 * (and the transaction is rolled back). Nothing may run in the transaction after it.
 */
export async function executeLast(trx: Runs, query: Compilable): Promise<void> {
  const compiled = query.compile();
  lastStatements.add(compiled);
  await trx.executeQuery(compiled);
}

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function literal(value: Scalar): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  return String(value);
}

/**
 * The statement's text with its parameters written in, or undefined when it cannot be: a parameter that is
 * not a plain scalar, or a text holding a literal or a comment of its own (where a `$1` could be anything).
 */
export function inlined(compiled: CompiledQuery): string | undefined {
  const { sql, parameters } = compiled;
  if (/'|--|\/\*|\$\$/.test(sql) || !parameters.every(isScalar)) return undefined;
  let complete = true;
  const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= parameters.length) complete = false;
    return complete ? literal(parameters[index] as Scalar) : '';
  });
  return complete ? text : undefined;
}

const raw = (text: string) => CompiledQuery.raw(text);

/** A connection whose transaction's BEGIN is held back until its first statement (see above). */
class PairingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  /** none: no transaction; held: begun here, BEGIN not yet sent; open: BEGIN sent. */
  #state: 'none' | 'held' | 'open' = 'none';
  /** The statement marked as the transaction's last, already written with its values, sent with COMMIT. */
  #last: string | null = null;

  constructor(inner: DatabaseConnection) {
    this.inner = inner;
  }

  begin() {
    this.#state = 'held';
    this.#last = null;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#last !== null)
      throw new Error('A statement ran after the one marked as its transaction’s last.');
    if (this.#state !== 'none' && lastStatements.has(compiled)) {
      const text = inlined(compiled);
      if (text !== undefined) {
        this.#last = text;
        return { rows: [] };
      }
    }
    if (this.#state === 'held') {
      this.#state = 'open';
      const text = firstStatements.has(compiled) ? inlined(compiled) : undefined;
      if (text !== undefined) {
        await this.inner.executeQuery(raw(`begin; ${text}`));
        return { rows: [] };
      }
      await this.inner.executeQuery(raw('begin'));
    }
    return this.inner.executeQuery<R>(compiled);
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.#state === 'held') {
      this.#state = 'open';
      await this.inner.executeQuery(raw('begin'));
    }
    yield* this.inner.streamQuery<R>(compiled, chunkSize);
  }

  async commit() {
    const last = this.#last;
    this.#last = null;
    // Nothing ran: nothing was begun on the server.
    if (this.#state === 'held' && last === null) {
      this.#state = 'none';
      return;
    }
    const begin = this.#state === 'held' ? 'begin; ' : '';
    // From here a failure leaves a transaction to roll back.
    this.#state = 'open';
    await this.inner.executeQuery(raw(`${begin}${last === null ? '' : `${last}; `}commit`));
    this.#state = 'none';
  }

  async rollback() {
    const held = this.#state === 'held';
    this.#state = 'none';
    this.#last = null;
    if (!held) await this.inner.executeQuery(raw('rollback'));
  }
}

class PairingPostgresDriver extends PostgresDriver {
  readonly #connections = new WeakMap<DatabaseConnection, PairingConnection>();

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    let connection = this.#connections.get(inner);
    if (!connection) {
      connection = new PairingConnection(inner);
      this.#connections.set(inner, connection);
    }
    return connection;
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // The driver's own connection, which it releases.
    await super.releaseConnection((connection as PairingConnection).inner as never);
  }

  override async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    // An isolation level or access mode is set by the statement that begins: sent as Kysely sends it.
    if (settings.isolationLevel || settings.accessMode) {
      await super.beginTransaction(connection, settings);
      return;
    }
    (connection as PairingConnection).begin();
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PairingConnection).commit();
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PairingConnection).rollback();
  }
}

/** Kysely's PostgreSQL dialect, with the pairing above. */
export class PairingPostgresDialect extends PostgresDialect {
  readonly #config: ConstructorParameters<typeof PostgresDialect>[0];

  constructor(config: ConstructorParameters<typeof PostgresDialect>[0]) {
    super(config);
    this.#config = config;
  }

  override createDriver() {
    return new PairingPostgresDriver(this.#config);
  }
}
