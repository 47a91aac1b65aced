/**
 * Excel exports made in a worker thread, one per export (decision 0750). The export's reading, sheet XML and
 * compression run on the worker's thread, so the event loop that answers everyone else only passes its
 * chunks on; and its heap is its own, with limits (EXPORT_WORKER_LIMITS): what it leaves behind is
 * collected within a small heap, or all at once when the worker ends, instead of swelling the server's old
 * generation until V8 next collects it. The worker opens its own connection (a file, or the PostgreSQL URL):
 * an in-memory database cannot be shared, so tests on one run exports in process (tasks.ts, exportInProcess).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { Database as DatabaseLocation } from '../config.ts';
import type { FileAnswer } from '../http/handlers.ts';
import { revivedError, type PlainError, type ToServer, type ToWorker, type WorkerInput } from './messages.ts';
import type { Exporter, ExportTask } from './tasks.ts';

/**
 * The worker's heap. An export keeps ~20 MB live (bench/export-heap.ts: batches of 10 evaluations, caches
 * bounded in size), and at most ~60 MB for the largest batches the limits allow (100 items of 20,000
 * characters answered with 5,000, two batches at once: tested); a bounded old generation makes V8 collect
 * within it, so the process's memory stays flat through the file. An export that would need more fails
 * (logged) rather than grow the server.
 */
export const EXPORT_WORKER_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 128,
  maxYoungGenerationSizeMb: 8,
};

/** How long a worker that has finished an export waits for the next before it ends. */
export const EXPORT_WORKER_IDLE_MS = 30_000;

export interface WorkerExports {
  run: Exporter;
  /** Workers making an export now. */
  readonly busy: number;
  /** Workers alive now, busy or waiting for the next export. */
  readonly alive: number;
  /** Ends every worker, and so every export still running (the app is closing). */
  close(): Promise<void>;
}

/**
 * tsx's ESM API (`register`), found from its package.json: an evaluated worker resolves bare names from the
 * working directory, and tsx's CommonJS entry cannot register its ESM hooks in a worker.
 */
function tsxApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(path.join(path.dirname(manifest), exports['./esm/api']!.import.default)).href;
}

/** Starts the worker: the compiled module as it is, or from the sources under tsx (tests, `npm run dev`). */
function startWorker(input: WorkerInput, resourceLimits: ResourceLimits): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./worker.js', import.meta.url), { workerData: input, resourceLimits });
  }
  const entry = new URL('./worker.ts', import.meta.url).href;
  const source = `import(${JSON.stringify(tsxApi())}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(source, { eval: true, workerData: input, resourceLimits, execArgv: [] });
}

/**
 * The exports, each in a worker of a small pool. A worker makes one export at a time; when it is done it
 * waits `idleMs` for the next (so a run of exports pays for loading the modules once, ~0.8 s compiled), then
 * ends, giving its memory back. At most as many are alive as exports ran at once (EXPORTS_PER_PROCESS).
 */
export function exportInWorkers(
  location: DatabaseLocation,
  resourceLimits: ResourceLimits = EXPORT_WORKER_LIMITS,
  idleMs = EXPORT_WORKER_IDLE_MS,
): WorkerExports {
  const alive = new Set<Worker>();
  const waiting = new Map<Worker, NodeJS.Timeout>();
  let closing = false;

  const take = (): Worker => {
    for (const [worker, timer] of waiting) {
      clearTimeout(timer);
      waiting.delete(worker);
      worker.ref();
      return worker;
    }
    const worker = startWorker({ location }, resourceLimits);
    alive.add(worker);
    // An export's own listeners report its errors; an idle worker's end is only its absence.
    worker.on('error', () => {});
    worker.on('exit', () => {
      alive.delete(worker);
      clearTimeout(waiting.get(worker));
      waiting.delete(worker);
    });
    return worker;
  };

  /** Exports running now (not alive minus waiting: an idle worker told to end is neither for a moment). */
  let exporting = 0;

  const giveBack = (worker: Worker) => {
    if (closing) return;
    worker.unref();
    const timer = setTimeout(() => {
      waiting.delete(worker);
      worker.postMessage({ type: 'close' } satisfies ToWorker);
    }, idleMs);
    timer.unref();
    waiting.set(worker, timer);
  };

  const run = (task: ExportTask, log: FastifyBaseLogger) =>
    new Promise<FileAnswer>((resolve, reject) => {
      if (closing) {
        reject(new Error('The export workers are closing.'));
        return;
      }
      const worker = take();
      exporting++;
      const tell = (message: ToWorker) => worker.postMessage(message);
      let body: Readable | null = null;
      let owed = 0; // chunks passed on whose `more` waits for the client to read
      let ended = false;
      let done = false;
      const fail = (error: Error) => {
        if (!body) reject(error);
        else if (!body.destroyed && !ended) body.destroy(error);
      };
      /** The export is over: the worker takes the next one, unless it is ending. */
      const finish = (reusable: boolean) => {
        if (done) return;
        done = true;
        exporting--;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (reusable) giveBack(worker);
      };

      const onMessage = (message: ToServer) => {
        switch (message.type) {
          case 'log': {
            const { err, ...fields } = message.fields;
            log[message.level](
              err ? { ...fields, err: revivedError(err as PlainError) } : fields,
              message.message,
            );
            break;
          }
          case 'file':
            body = new Readable({
              read() {
                if (done) return;
                for (; owed > 0; owed--) tell({ type: 'more' });
              },
              destroy(error, callback) {
                if (!done) tell({ type: 'stop' });
                callback(error);
              },
            });
            resolve({ file: { filename: message.filename, contentType: message.contentType, body } });
            break;
          case 'chunk': {
            const { chunk } = message;
            if (body!.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)))
              tell({ type: 'more' });
            else owed++;
            break;
          }
          case 'end':
            ended = true;
            body!.push(null);
            finish(true);
            break;
          case 'error':
            fail(revivedError(message.error));
            finish(true);
            break;
        }
      };
      // Thrown in the worker outside the export's own handling, or its heap limit reached.
      const onError = (error: Error) => {
        log.error({ err: error }, 'Excel export worker failed');
        fail(error);
        finish(false);
      };
      const onExit = (code: number) => {
        fail(new Error(`The export worker ended (exit code ${code}) before the file was complete.`));
        finish(false);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      tell({ type: 'task', task });
    });

  return {
    run,
    get busy() {
      return exporting;
    },
    get alive() {
      return alive.size;
    },
    async close() {
      closing = true;
      for (const timer of waiting.values()) clearTimeout(timer);
      waiting.clear();
      await Promise.all([...alive].map((worker) => worker.terminate()));
    },
  };
}
