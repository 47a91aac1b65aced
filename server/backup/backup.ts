/**
 * Backup and restore of the database DATABASE_URL names (decision 0604). SQLite: better-sqlite3's online
 * backup API, safe while the server runs, to a file that is itself a SQLite database. PostgreSQL:
 * pg_dump's custom format, restored by pg_restore (both from the machine's PostgreSQL client, of a
 * version at least the server's). A backup is written to a temporary file and renamed when complete, so
 * a file with the final name is a whole backup. Restore goes into an empty database (or, forced, replaces
 * what is there) with the server stopped.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database as DatabaseConfig } from '../config.ts';

export class BackupError extends Error {}

/** The URL without its password, and the password for PGPASSWORD: never on a command line. */
function connection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    let errors = '';
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.once('error', (error) =>
      reject(
        new BackupError(
          (error as { code?: string }).code === 'ENOENT'
            ? `${command} was not found: install the PostgreSQL client tools (e.g. apt-get install postgresql-client).`
            : `${command} could not start: ${error.message}`,
        ),
      ),
    );
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed: ${errors.trim() || `exit ${code}`}`)),
    );
  });
}

export async function backupDatabase(config: DatabaseConfig, file: string): Promise<void> {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    if (config.kind === 'sqlite') {
      if (config.file === ':memory:' || !existsSync(config.file))
        throw new BackupError(`There is no SQLite database at ${config.file}.`);
      const source = new SQLite(config.file, { fileMustExist: true });
      try {
        await source.backup(partial);
      } finally {
        source.close();
      }
      const copy = new SQLite(partial, { readonly: true });
      try {
        const check = copy.pragma('quick_check', { simple: true });
        if (check !== 'ok') throw new BackupError(`The backup did not pass SQLite's check: ${String(check)}`);
      } finally {
        copy.close();
      }
    } else {
      const { url, env } = connection(config.url);
      await run(
        'pg_dump',
        ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${url}`],
        env,
      );
    }
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

async function postgresTableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      "select count(*) as count from information_schema.tables where table_schema = 'public'",
    );
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}

export async function restoreDatabase(
  config: DatabaseConfig,
  file: string,
  options: { force?: boolean } = {},
): Promise<void> {
  if (!existsSync(file) || !statSync(file).isFile())
    throw new BackupError(`There is no backup file ${file}.`);
  const refuse = () =>
    new BackupError(
      'The database DATABASE_URL names is not empty: restore into a new database, or add --force to replace it (stop the server first).',
    );
  if (config.kind === 'sqlite') {
    if (config.file === ':memory:') throw new BackupError('Cannot restore into an in-memory database.');
    if (existsSync(config.file) && statSync(config.file).size > 0) {
      if (!options.force) throw refuse();
    }
    const source = new SQLite(file, { readonly: true, fileMustExist: true });
    const partial = `${config.file}.restoring`;
    try {
      if (source.pragma('quick_check', { simple: true }) !== 'ok')
        throw new BackupError(`${file} is not a sound SQLite backup.`);
      mkdirSync(path.dirname(config.file), { recursive: true });
      rmSync(partial, { force: true });
      await source.backup(partial);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error instanceof BackupError
        ? error
        : new BackupError(`${file} is not a SQLite backup: ${error}`);
    } finally {
      source.close();
    }
    // The old database's journal files belong to it, not to the restored one.
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${config.file}${suffix}`, { force: true });
    renameSync(partial, config.file);
    return;
  }
  const { url, env } = connection(config.url);
  const tables = await postgresTableCount(config.url);
  if (tables > 0 && !options.force) throw refuse();
  await run(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      ...(tables > 0 ? ['--clean', '--if-exists'] : []),
      `--dbname=${url}`,
      file,
    ],
    env,
  );
}
