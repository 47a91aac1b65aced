/**
 * The web client's request layer (SPEC §7's last bullet and §8): typed calls from the shared contract,
 * a 120 s time-out, retries on 408/502/503/504/522/524 (up to 3, 300 ms then doubling), the same
 * Idempotency-Key on every retry, and the server's errMsg shown as given.
 */
import type { z } from 'zod';
import type { CallDef } from '../../common/api/define.ts';
import type { WireFacts } from '../../common/api/wire.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  REQUEST_MAX_RETRIES,
  REQUEST_RETRY_BASE_MS,
  REQUEST_TIMEOUT_MS,
  RETRY_STATUSES,
} from '../../common/constants.ts';

export const NETWORK_FAILURE_MESSAGE = 'Unable to reach server. Please try again later';

export class ApiError extends Error {
  constructor(
    /** HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    readonly errMsg: string,
    readonly errField?: string,
  ) {
    super(errMsg);
    this.name = 'ApiError';
  }
}

export interface ApiEvents {
  /** A member call was refused for want of a session: the login modal takes over. */
  onUnauthenticated?: (errMsg: string) => void;
  /** The organisation is unpaid (402). */
  onUnpaid?: (errMsg: string) => void;
}

export const apiEvents: ApiEvents = {};

export interface CallOptions {
  /** One per user action; generated when absent for state-changing calls. Retries reuse it. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** For tests. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export interface FileDownload {
  blob: Blob;
  filename: string;
}

export type Answer<C extends CallDef> = C['file'] extends true ? FileDownload : z.output<C['response']>;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves in a task of its own (decision 0774). A render that asks for four reads would otherwise make four
 * `fetch()` calls in its own task, each 1-4 ms of the browser's work at full speed (4-16 ms on a phone's
 * CPU): the board view's longest task on opening. `scheduler.yield()` where the browser has it, a message
 * to itself elsewhere (Safari; Node in tests, where timers may be fake).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

function urlFor(call: WireFacts, body: unknown): string {
  if (call.method !== 'GET' || !body || typeof body !== 'object') return call.path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body))
    if (value !== undefined && value !== null) params.set(key, String(value));
  const query = params.toString();
  return query ? `${call.path}?${query}` : call.path;
}

async function errorFrom(call: WireFacts, response: Response): Promise<ApiError> {
  let errMsg: string | undefined;
  let errField: string | undefined;
  try {
    const body = (await response.json()) as { errMsg?: unknown; errField?: unknown };
    if (typeof body.errMsg === 'string' && body.errMsg) errMsg = body.errMsg;
    if (typeof body.errField === 'string') errField = body.errField;
  } catch {
    // No JSON body (a proxy's error page): the call's own message stands in.
  }
  return new ApiError(response.status, errMsg ?? call.failMsg, errField);
}

function filenameOf(response: Response): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  return disposition.match(/filename="?([^";]+)"?/)?.[1] ?? 'download';
}

/** One attempt, bounded by the time-out; a network failure or time-out becomes status 0. */
async function attempt(
  call: WireFacts,
  init: RequestInit,
  url: string,
  options: CallOptions,
): Promise<Response> {
  // The browser's fetch() in a task of its own (decision 0774); a test's stand-in costs nothing to spread.
  if (!options.fetch) await nextTask();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  const abort = () => controller.abort();
  options.signal?.addEventListener('abort', abort);
  try {
    return await (options.fetch ?? fetch)(url, { ...init, signal: controller.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_FAILURE_MESSAGE);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abort);
  }
}

export async function callApi<C extends CallDef>(
  def: C,
  body: z.input<C['request']>,
  options: CallOptions = {},
): Promise<Answer<C>> {
  // Only the wire facts exist in the browser's build (common/api/wire.ts, docs/decisions/0628).
  const call: WireFacts = def;
  const sleep = options.sleep ?? defaultSleep;
  const headers: Record<string, string> = { Accept: call.file ? '*/*' : 'application/json' };
  if (call.method !== 'GET') headers['Content-Type'] = 'application/json';
  if (call.mutates) headers[IDEMPOTENCY_KEY_HEADER] = options.idempotencyKey ?? newIdempotencyKey();
  const init: RequestInit = {
    method: call.method,
    headers,
    credentials: 'same-origin',
    ...(call.method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
  };
  const url = urlFor(call, body);

  for (let retry = 0; ; retry++) {
    const response = await attempt(call, init, url, options);
    if (RETRY_STATUSES.includes(response.status) && retry < REQUEST_MAX_RETRIES) {
      await sleep(REQUEST_RETRY_BASE_MS * 2 ** retry);
      continue;
    }
    if (!response.ok) {
      const error = await errorFrom(call, response);
      if (response.status === 401 && call.access !== 'public' && call.access !== 'anonymous') {
        apiEvents.onUnauthenticated?.(error.errMsg);
      }
      if (response.status === 402) apiEvents.onUnpaid?.(error.errMsg);
      throw error;
    }
    if (call.file) return { blob: await response.blob(), filename: filenameOf(response) } as Answer<C>;
    return (await response.json()) as Answer<C>;
  }
}

/** The message to show for a failed call: the server's, or the call's own fallback. */
export function messageOf(error: unknown, call?: WireFacts): string {
  if (error instanceof ApiError) return error.errMsg;
  return call?.failMsg ?? NETWORK_FAILURE_MESSAGE;
}
