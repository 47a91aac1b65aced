/**
 * An export worker's thread (decision 0750): opens a connection of its own to the server's database, then
 * makes the exports it is given, one at a time, with the same code as the server (tasks.ts), sending each
 * file to the server in chunks, never more than CHUNKS_IN_FLIGHT ahead of what the server has passed on to
 * the client. The protocol is in messages.ts; the server side is inWorker.ts.
 */
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parentPort, workerData } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { openDatabase } from '../db/index.ts';
import { CHUNKS_IN_FLIGHT, plainError, type ToServer, type ToWorker, type WorkerInput } from './messages.ts';
import { exportHere, type ExportTask } from './tasks.ts';

const port = parentPort!;
const { location } = workerData as WorkerInput;
const send = (message: ToServer, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

/** The export's log lines go to the server's log, with the request they belong to. */
function forward(level: 'error' | 'warn' | 'info' | 'debug'): (object: unknown, message?: string) => void {
  return (object, message) => {
    const fields = typeof object === 'object' && object !== null ? { ...object } : { value: object };
    if ('err' in fields) fields.err = plainError(fields.err);
    send({ type: 'log', level, fields, message: message ?? '' });
  };
}
const silent = () => {};
const log = {
  level: 'info',
  error: forward('error'),
  warn: forward('warn'),
  info: forward('info'),
  debug: forward('debug'),
  fatal: forward('error'),
  trace: silent,
  silent,
  child: () => log,
} as unknown as FastifyBaseLogger;

const database = openDatabase(location, { poolSize: 2 });

/** The export being made: chunks it may still send unacknowledged, and how to resume or stop it. */
let current: { credits: number; blocked: (() => void) | null; stop: () => void } | null = null;

/** Each chunk copied into a buffer of its own and moved, not copied again, to the server's thread. */
function toServer(state: NonNullable<typeof current>): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const copy = new Uint8Array(chunk.length);
      copy.set(chunk);
      send({ type: 'chunk', chunk: copy }, [copy.buffer]);
      state.credits--;
      if (state.credits > 0) callback();
      else state.blocked = () => callback();
    },
  });
}

async function make(task: ExportTask) {
  let stopped = false;
  let body: Readable | null = null;
  const state = {
    credits: CHUNKS_IN_FLIGHT,
    blocked: null as (() => void) | null,
    stop: () => {
      stopped = true;
      body?.destroy();
    },
  };
  current = state;
  try {
    const answer = await exportHere(database.db, task, log);
    body = answer.file.body;
    const { filename, contentType } = answer.file;
    send({ type: 'file', filename, contentType });
    if (stopped) body.destroy();
    await pipeline(body, toServer(state));
    send({ type: 'end' });
  } catch (error) {
    send({ type: 'error', error: plainError(error) });
  } finally {
    current = null;
  }
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'task':
      void make(message.task);
      break;
    case 'more': {
      if (!current) break;
      current.credits++;
      const resume = current.blocked;
      current.blocked = null;
      resume?.();
      break;
    }
    case 'stop':
      current?.stop();
      break;
    case 'close':
      void database.close().finally(() => port.close());
      break;
  }
});
