/**
 * The benchmark's HTTP clients: a plain keep-alive one, a timed one whose calls are made and timed in a
 * worker thread (decision 0788), and the latency statistics they report.
 */
import http from 'node:http';
import { Worker } from 'node:worker_threads';

export interface Answer {
  status: number;
  body: Buffer;
  ms: number;
}

export interface CallOptions {
  cookie?: string;
  method?: string;
  idempotencyKey?: string;
  acceptEncoding?: string;
}

/** A call's headers, as the page's client sends them. */
function headersOf(payload: Buffer, options: CallOptions): http.OutgoingHttpHeaders {
  return {
    'content-type': 'application/json',
    'content-length': payload.length,
    'sec-fetch-site': 'same-origin',
    ...(options.cookie ? { cookie: options.cookie } : {}),
    ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    // As a browser sends it (decision 0777): the answer then comes compressed, and `body` is as sent.
    ...(options.acceptEncoding ? { 'accept-encoding': options.acceptEncoding } : {}),
  };
}

export class Client {
  private readonly agent: http.Agent;

  constructor(
    readonly port: number,
    maxSockets = 64,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  /** One JSON call of the API, timed from sending to the last byte of the answer (not decompressed). */
  call(path: string, body: unknown, options: CallOptions = {}) {
    return new Promise<Answer>((resolve, reject) => {
      const payload = Buffer.from(JSON.stringify(body ?? {}));
      const started = process.hrtime.bigint();
      const request = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          path,
          method: options.method ?? 'POST',
          agent: this.agent,
          headers: headersOf(payload, options),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks),
              ms: Number(process.hrtime.bigint() - started) / 1e6,
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  /** A download, consumed as it arrives (never held whole): its size, time and the file's last bytes. */
  download(
    path: string,
    body: unknown,
    cookie: string,
    onProgress: (bytes: number) => void,
  ): Promise<{ status: number; bytes: number; ms: number; headers: http.IncomingHttpHeaders; tail: Buffer }> {
    return new Promise((resolve, reject) => {
      const payload = Buffer.from(JSON.stringify(body));
      const started = process.hrtime.bigint();
      const request = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          path,
          method: 'POST',
          agent: this.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': payload.length,
            'sec-fetch-site': 'same-origin',
            cookie,
          },
        },
        (response) => {
          let bytes = 0;
          let tail = Buffer.alloc(0);
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            tail = Buffer.concat([tail, chunk]).subarray(-256);
            onProgress(bytes);
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              bytes,
              ms: Number(process.hrtime.bigint() - started) / 1e6,
              headers: response.headers,
              tail,
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  close() {
    this.agent.destroy();
  }
}

interface WorkerAnswer {
  id: number;
  status?: number;
  ms?: number;
  bytes?: number;
  body?: ArrayBuffer;
  error?: string;
}

/**
 * Calls made and timed in a worker thread of their own (bench/httpWorker.mjs, decision 0788), so that this
 * thread's garbage collections, which grow with the answers' bytes it takes in, are not inside the figures.
 * `call` answers as Client's does, except that by default the body is left in the worker (`body` is empty for
 * a 2xx answer, its first 300 bytes otherwise) and `bytes` says how long it was; `keepBody: true` brings the
 * whole body here. Downloads are made in this thread (`inProcess`).
 */
export class TimedClient {
  private readonly worker: Worker;
  private readonly waiting = new Map<
    number,
    { resolve(answer: Answer & { bytes: number }): void; reject(error: Error): void }
  >();
  private next = 0;
  /** Calls in this thread: downloads, and throughput rounds where both sides must use the same client. */
  readonly inProcess: Client;

  constructor(
    readonly port: number,
    maxSockets = 64,
  ) {
    this.inProcess = new Client(port, maxSockets);
    this.worker = new Worker(new URL('./httpWorker.mjs', import.meta.url), {
      workerData: { maxSockets },
      execArgv: [],
    });
    this.worker.on('message', (answer: WorkerAnswer) => {
      const waiting = this.waiting.get(answer.id);
      if (!waiting) return;
      this.waiting.delete(answer.id);
      if (answer.error !== undefined) waiting.reject(new Error(answer.error));
      else
        waiting.resolve({
          status: answer.status!,
          ms: answer.ms!,
          bytes: answer.bytes!,
          body: Buffer.from(answer.body!),
        });
    });
    this.worker.on('error', (error) => {
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    });
  }

  call(
    path: string,
    body: unknown,
    options: CallOptions & { keepBody?: boolean } = {},
  ): Promise<Answer & { bytes: number }> {
    const payload = Buffer.from(JSON.stringify(body ?? {}));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({
        id,
        port: this.port,
        path,
        method: options.method ?? 'POST',
        headers: headersOf(payload, options),
        payload,
        keepBody: options.keepBody ?? false,
      });
    });
  }

  download(...args: Parameters<Client['download']>): ReturnType<Client['download']> {
    return this.inProcess.download(...args);
  }

  close() {
    this.inProcess.close();
    this.worker.postMessage('close');
  }
}

export interface Stats {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  perSecond: number;
}

export function stats(latencies: number[], wallMs: number): Stats {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  return {
    count: sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: sorted.at(-1) ?? NaN,
    perSecond: (sorted.length / wallMs) * 1000,
  };
}

/**
 * `workers` concurrent users, each making `perWorker` calls one after another: a closed loop without think
 * time, the hardest reading of "N concurrent users". `task` answers the call's latency in ms; `into`, when
 * given, receives every latency too (the scale shape pools them over its rounds).
 */
export async function load(
  workers: number,
  perWorker: number,
  task: (worker: number, call: number) => Promise<number>,
  into?: number[],
): Promise<Stats> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let call = 0; call < perWorker; call++) latencies.push(await task(worker, call));
    }),
  );
  into?.push(...latencies);
  return stats(latencies, performance.now() - started);
}

/** `count` calls one at a time: the latency of one request on an otherwise idle server. */
export function sequential(
  count: number,
  task: (i: number) => Promise<number>,
  into?: number[],
): Promise<Stats> {
  return load(1, count, (_worker, i) => task(i), into);
}
