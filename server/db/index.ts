import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type LogEvent,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import { nameStatements } from './pgNamedStatements.ts';
import { settleQueriesByCallback } from './pgQueryPromise.ts';
import { PairingPostgresDialect } from './pgTransactions.ts';
import type { Database as DatabaseConfig } from '../config.ts';
import type { DialectName } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';
import { startCheckpointer, type Checkpointer } from './sqliteCheckpointer.ts';
import { commitSync, registerCommitSync, type CommitSync } from './sqliteCommitSync.ts';
import { driverDatabase } from './sqliteStatements.ts';
import type { DB } from './schema.ts';

export type { DB } from './schema.ts';
export type Db = Kysely<DB>;

/** The connections a process holds (metrics): SQLite has one, always open. */
export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  db: Db;
  dialect: DialectName;
  poolStats(): PoolStats;
  close(): Promise<void>;
  /** Where it is: another connection (an export worker's, decision 0750) opens the same database with it. */
  location: DatabaseConfig;
  /** SQLite with backgroundCheckpoint: the worker that checkpoints the write-ahead log. */
  checkpointer?: Checkpointer;
  /** SQLite with syncCommitsOffLoop: what is committed and not yet on the disk (decision 0752). */
  commits?: CommitSync;
}

// int8 (bigint ids, epoch-ms times, counts) as JavaScript numbers: all stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

export interface OpenOptions {
  poolSize?: number;
  /** Called with the SQL of every statement run and its time (the tenancy check and the benches record them). */
  onQuery?: (sql: string, milliseconds: number) => void;
  /**
   * SQLite: checkpoint the write-ahead log in a worker thread rather than in whichever commit crosses the
   * threshold (docs/decisions/0745). For the process that serves the file; tests and tools leave it off.
   */
  backgroundCheckpoint?: boolean;
  /**
   * SQLite: commit without waiting for the disk on the event loop, and sync the log on the thread pool
   * (docs/decisions/0752); the server answers only once its commits are synced (`commits.settled`). For the
   * process that serves the file; tools and tests keep `synchronous = FULL`.
   */
  syncCommitsOffLoop?: boolean;
}

/**
 * Transactions on SQLite take the write lock when they begin (`begin immediate`), not at their first write.
 * A deferred transaction that reads, then writes after another process has written (a backup restore, a
 * second server started by mistake, the journeys' seeding) fails at once with SQLITE_BUSY: the busy timeout
 * cannot help a reader whose snapshot is stale. Taken at the start, the lock waits its turn instead. Within
 * the process nothing changes: Kysely runs one statement or transaction at a time on the one connection.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Database {
  const { onQuery } = options;
  const log = onQuery
    ? (event: LogEvent) => {
        if (event.level === 'query') onQuery(event.query.sql, event.queryDurationMillis);
      }
    : undefined;
  if (config.kind === 'postgres') {
    // A connection that cannot be made in 5 s fails (503) instead of leaving the request waiting.
    const pool = new pg.Pool({
      connectionString: config.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      // No JIT compilation (decision 0758): PostgreSQL starts it from a plan's estimated cost, and a report's
      // ranges of literals estimated over 100,000 made it compile for 26 ms a statement that ran in 4.
      ...(config.jit ? {} : { options: '-c jit=off' }),
    });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    // Nor must one dropped while in use (database restarted mid-query): the query fails (503), the pool
    // discards the client on release, and the next request connects afresh.
    pool.on('connect', (client) => {
      client.on('error', () => {});
      settleQueriesByCallback(client);
      if (config.namedStatements !== false) nameStatements(client);
    });
    const db = new Kysely<DB>({ dialect: new PairingPostgresDialect({ pool }), log });
    const poolStats = () => ({
      max: pool.options.max ?? 10,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    });
    return { db, dialect: 'postgres', poolStats, close: () => db.destroy(), location: config };
  }
  if (config.file !== ':memory:') mkdirSync(path.dirname(config.file), { recursive: true });
  const sqlite = new SQLite(config.file);
  sqlite.pragma('journal_mode = WAL');
  const commits =
    options.syncCommitsOffLoop && config.file !== ':memory:' ? commitSync(`${config.file}-wal`) : null;
  sqlite.pragma(commits ? 'synchronous = NORMAL' : 'synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const onCommit = commits ? () => commits.committed() : undefined;
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: driverDatabase(sqlite, onCommit) }),
    log,
  });
  if (commits) registerCommitSync(db, commits);
  const checkpointer =
    options.backgroundCheckpoint && config.file !== ':memory:'
      ? startCheckpointer(sqlite, config.file)
      : null;
  // Kysely serialises the statements on the one connection; who waits for it is not counted.
  const poolStats = () => ({ max: 1, total: 1, idle: 0, waiting: 0 });
  const close = async () => {
    await checkpointer?.stop();
    await commits?.close();
    await db.destroy();
  };
  return {
    db,
    dialect: 'sqlite',
    poolStats,
    close,
    location: config,
    ...(checkpointer ? { checkpointer } : {}),
    ...(commits ? { commits } : {}),
  };
}

/** Opens, checks the connection and migrates: what the server does at start. */
export async function openAndMigrate(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  const database = openDatabase(config, options);
  try {
    // A connection problem is reported as such, before any migration is tried.
    await sql`select 1`.execute(database.db);
    await migrateToLatest(database.db, database.dialect);
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  return database;
}
