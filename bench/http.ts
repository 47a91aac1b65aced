/** A plain keep-alive HTTP client for the benchmark, and the latency statistics it reports. */
import http from 'node:http';

export interface Answer {
  status: number;
  body: Buffer;
  ms: number;
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
  call(
    path: string,
    body: unknown,
    options: { cookie?: string; method?: string; idempotencyKey?: string; acceptEncoding?: string } = {},
  ) {
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
          headers: {
            'content-type': 'application/json',
            'content-length': payload.length,
            'sec-fetch-site': 'same-origin',
            ...(options.cookie ? { cookie: options.cookie } : {}),
            ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
            // As a browser sends it (decision 0777): the answer then comes compressed, and `body` is as sent.
            ...(options.acceptEncoding ? { 'accept-encoding': options.acceptEncoding } : {}),
          },
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
 * time, the hardest reading of "N concurrent users". `task` answers the call's latency in ms.
 */
export async function load(
  workers: number,
  perWorker: number,
  task: (worker: number, call: number) => Promise<number>,
): Promise<Stats> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let call = 0; call < perWorker; call++) latencies.push(await task(worker, call));
    }),
  );
  return stats(latencies, performance.now() - started);
}

/** `count` calls one at a time: the latency of one request on an otherwise idle server. */
export function sequential(count: number, task: (i: number) => Promise<number>): Promise<Stats> {
  return load(1, count, (_worker, i) => task(i));
}
