/**
 * SQLite commits synced off the event loop (docs/decisions/0752). The serving process's connection commits
 * at `synchronous = NORMAL` (a commit writes the write-ahead log, without waiting for the disk), and this
 * syncs the log on libuv's thread pool, one sync for every commit made before it began (a group commit).
 * The server answers no request while a commit is not yet synced (its onSend hook awaits `settled`), so
 * whatever it has answered, a write or a read of one, is on the disk, as with `synchronous = FULL`; the
 * loop no longer stands still for the disk's 4-40 ms a commit. The log itself stays consistent at NORMAL (a
 * power cut rolls back unsynced commits, never corrupts the file), and checkpoints sync it before copying.
 */
import { fdatasync, open, close } from 'node:fs';
import { promisify } from 'node:util';

const openFile = promisify(open);
const syncFile = promisify(fdatasync);
const closeFile = promisify(close);

export interface CommitSync {
  /** The driver calls it after each statement that ended a transaction that wrote (or an autocommit write). */
  committed(): void;
  /** Whether a commit is not yet known to be on the disk. */
  readonly pending: boolean;
  /** Resolves once every commit made so far is on the disk; rejects if the sync failed. */
  settled(): Promise<void>;
  /** Runs work whose commits need no sync (decision 0752: the fold); the reserved connection is its own. */
  uncounted<T>(work: () => Promise<T>): Promise<T>;
  /** Waits for the last sync and lets go of the file. */
  close(): Promise<void>;
}

/** `sync` is the disk's wait (fdatasync of the log by default): tests hand a slower or failing one. */
export function commitSync(walFile: string, sync: (fd: number) => Promise<void> = syncFile): CommitSync {
  let commits = 0;
  let synced = 0;
  let skipping = 0;
  let running: Promise<void> | null = null;
  /** The commits the running sync covers: those made before it began. */
  let runningUpTo = 0;
  let fd: number | null = null;

  const start = (): Promise<void> => {
    const upTo = commits;
    runningUpTo = upTo;
    running = (async () => {
      fd ??= await openFile(walFile, 'r');
      await sync(fd);
      synced = Math.max(synced, upTo);
    })().finally(() => {
      running = null;
    });
    // Commits made while it ran get the next sync, waited for or not. A failure is told to the waiters
    // (settled) and tried again by the next commit or wait, not at once.
    running.then(
      () => {
        if (!running && commits > synced) void start();
      },
      () => {},
    );
    return running;
  };

  return {
    committed() {
      if (skipping) return;
      commits++;
      // The sync starts now, while the request builds its answer; one already running is followed by another.
      if (!running) void start();
    },
    get pending() {
      return commits > synced;
    },
    async settled() {
      const upTo = commits;
      while (synced < upTo) {
        // A sync that covers these commits is waited for, and its failure is the caller's.
        if (running && runningUpTo >= upTo) await running;
        // One that began before the last of them is not: it ends first, then another begins.
        else if (running) await running.catch(() => {});
        else await start();
      }
    },
    async uncounted(work) {
      skipping++;
      try {
        return await work();
      } finally {
        skipping--;
      }
    },
    async close() {
      await this.settled().catch(() => {});
      if (fd !== null) await closeFile(fd);
      fd = null;
    },
  };
}

// Keyed by the Kysely instance openDatabase made (any object: the map holds no types).
const syncs = new WeakMap<object, CommitSync>();

/** The commit sync of a database opened with it (openDatabase registers it), if any. */
export const commitSyncOf = (db: object): CommitSync | undefined => syncs.get(db);

export const registerCommitSync = (db: object, sync: CommitSync): void => {
  syncs.set(db, sync);
};
