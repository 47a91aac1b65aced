/** What the server and an export worker say to each other (decision 0750). */
import type { Database as DatabaseLocation } from '../config.ts';
import { AppError, type ErrorCode } from '../errors.ts';
import type { ExportTask } from './tasks.ts';

/**
 * Chunks (~64 KB of the compressed file each) the worker may send before the server has passed them on.
 * Every export ends with exactly one `end` or `error`, after which the worker takes the next task.
 */
export const CHUNKS_IN_FLIGHT = 4;

/** What a worker starts with: where the database is. Its exports come one at a time as `task` messages. */
export interface WorkerInput {
  location: DatabaseLocation;
}

/** An error as it crosses threads: what the server's error handling and its log need of it. */
export interface PlainError {
  message: string;
  stack?: string | undefined;
  code?: string | undefined;
  /** Set for the API's own refusals (AppError), which are answered as they are in the server. */
  app?: { code: ErrorCode; errMsg: string; errField?: string | undefined } | undefined;
}

export type ToServer =
  | { type: 'file'; filename: string; contentType: string }
  | { type: 'chunk'; chunk: Uint8Array }
  | { type: 'end' }
  | { type: 'error'; error: PlainError }
  | {
      type: 'log';
      level: 'error' | 'warn' | 'info' | 'debug';
      fields: Record<string, unknown>;
      message: string;
    };

/**
 * `task`: make this export (one at a time); `more`: one chunk was passed on; `stop`: the client has gone,
 * end the export; `close`: no more exports, close the connection and end.
 */
export type ToWorker =
  { type: 'task'; task: ExportTask } | { type: 'more' } | { type: 'stop' } | { type: 'close' };

export function plainError(error: unknown): PlainError {
  if (error instanceof AppError) {
    return {
      message: error.message,
      app: { code: error.code, errMsg: error.errMsg, errField: error.errField },
    };
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { message: error.message, stack: error.stack, code: typeof code === 'string' ? code : undefined };
  }
  return { message: String(error) };
}

/** The error again, on the server's side: an AppError as such, anything else as an Error with its code. */
export function revivedError(plain: PlainError): Error {
  if (plain.app) return new AppError(plain.app.code, plain.app.errMsg, plain.app.errField);
  const error = new Error(plain.message) as Error & { code?: string };
  if (plain.stack) error.stack = plain.stack;
  if (plain.code) error.code = plain.code;
  return error;
}
