/**
 * SQLite's write-ahead log copied back into the database file by a worker thread instead of by the request
 * whose commit happens to cross the threshold (docs/decisions/0745). With automatic checkpoints, one commit
 * in every few dozen also copies a thousand pages and syncs the file: measured as add-results' slowest
 * answers. Here the server's connection stops checkpointing (`wal_autocheckpoint = 0`) and a worker with a
 * connection of its own runs a PASSIVE checkpoint (never waits for, nor blocks, the server's readers and
 * writer) every CHECKPOINT_EVERY_MS, or sooner when asked, and cuts the log file back when nothing is being
 * written (decision 0772). Should the worker ever stop, the server's connection checkpoints automatically
 * again.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

export const CHECKPOINT_EVERY_MS = 1_000;
/**
 * The worker cuts the WAL file back to nothing once it is over this size, every frame is copied and no
 * frame was written for a whole interval (decision 0772). A commit never does it below WAL_HARD_LIMIT_BYTES:
 * the cut, made by the writer's commit after the log restarts, took 184 ms on the event loop while the
 * worker synced the database file.
 */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/** Past this size the server's own commit cuts the log back (`journal_size_limit`), quiet or not. */
export const WAL_HARD_LIMIT_BYTES = 1024 * 1024 * 1024;
const AUTOCHECKPOINT_PAGES = 1_000;

// Plain JavaScript, evaluated as the worker (the same under tsx and compiled): no TypeScript to load.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 1000');
let lastLog = -1;
const walSize = () => { try { return statSync(workerData.file + '-wal').size; } catch { return 0; } };
const checkpoint = () => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    // Quiet: every frame copied, and the same frames as at the last checkpoint (none written since).
    const quiet = row.busy === 0 && row.log === row.checkpointed && row.log === lastLog;
    lastLog = row.log;
    let truncated = false;
    if (quiet && walSize() > workerData.walSizeLimit) {
      // Never waits: with a reader or the writer busy, it gives up and the next quiet interval tries again.
      db.pragma('busy_timeout = 0');
      try {
        const [cut] = db.pragma('wal_checkpoint(TRUNCATE)');
        truncated = cut.busy === 0;
        if (truncated) lastLog = 0;
      } finally {
        db.pragma('busy_timeout = 1000');
      }
    }
    parentPort.postMessage({ busy: row.busy, log: row.log, checkpointed: row.checkpointed, truncated });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'checkpoint') checkpoint();
  if (message === 'stop') { clearInterval(timer); db.close(); parentPort.close(); }
});
`;

export interface CheckpointReport {
  busy: number;
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
  /** The WAL file was cut back to nothing after this checkpoint (over the limit, the database quiet). */
  truncated: boolean;
}

export interface Checkpointer {
  /** Asks for a checkpoint now; resolves with its outcome. */
  checkpoint(): Promise<CheckpointReport>;
  /** Stops the worker and gives checkpoints back to the connection. */
  stop(): Promise<void>;
  /** The thread itself (its exit is what the tests provoke). */
  readonly worker: Worker;
  /** Where a failed checkpoint, or the worker's end, is told (the server's log); untold before it is set. */
  reportProblemsTo(listener: (problem: string, error: Error) => void): void;
}

export function startCheckpointer(
  connection: SQLite.Database,
  file: string,
  options: { everyMs?: number; walSizeLimitBytes?: number } = {},
): Checkpointer {
  connection.pragma(`journal_size_limit = ${WAL_HARD_LIMIT_BYTES}`);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS,
      walSizeLimit: options.walSizeLimitBytes ?? WAL_SIZE_LIMIT_BYTES,
      driver: driverPath(),
    },
  });
  // The worker must never keep the process alive, nor take it down.
  worker.unref();
  let waiting: { resolve(report: CheckpointReport): void; reject(error: Error): void }[] = [];
  let stopped = false;
  let report: (problem: string, error: Error) => void = () => {};
  const restoreAutomatic = () => {
    if (!connection.open) return;
    connection.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    // Checkpointing by itself again, the connection is also what cuts the log back.
    connection.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  };
  worker.on('message', (message: CheckpointReport | { error: string }) => {
    const answered = waiting;
    waiting = [];
    const failure = 'error' in message ? new Error(message.error) : null;
    if (failure) report('SQLite checkpoint failed; the worker tries again', failure);
    for (const { resolve, reject } of answered)
      if (failure) reject(failure);
      else resolve(message as CheckpointReport);
  });
  worker.on('error', (error) => {
    restoreAutomatic();
    report('SQLite checkpoint worker failed; the connection checkpoints by itself again', error);
  });
  let exited = false;
  worker.on('exit', (code) => {
    exited = true;
    const answered = waiting;
    waiting = [];
    for (const { reject } of answered) reject(new Error('The checkpoint worker has stopped.'));
    if (stopped) return;
    restoreAutomatic();
    report(
      'SQLite checkpoint worker stopped; the connection checkpoints by itself again',
      new Error(`worker exit code ${code}`),
    );
  });
  connection.pragma('wal_autocheckpoint = 0');
  return {
    worker,
    reportProblemsTo(listener) {
      report = listener;
    },
    checkpoint() {
      return new Promise((resolve, reject) => {
        if (exited) return reject(new Error('The checkpoint worker has stopped.'));
        waiting.push({ resolve, reject });
        worker.postMessage('checkpoint');
      });
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      restoreAutomatic();
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('stop');
      await exited;
    },
  };
}

/** better-sqlite3's own entry, so the worker loads the same driver as the server. */
function driverPath(): string {
  return fileURLToPath(import.meta.resolve('better-sqlite3'));
}
