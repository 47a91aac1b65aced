/**
 * Real app processes for the tests that need them (several instances, kill -9): the server started from
 * source as `node --import tsx server/main.ts`, one process, so a signal reaches the server itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { IDEMPOTENCY_KEY_HEADER } from '../../common/constants.ts';
import { api, type CallName } from '../../common/api/index.ts';
import { projectRoot } from '../paths.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (pino's JSON lines). */
  output(): string;
  exited: Promise<number | string | null>;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>;
  /** kill -9, then wait for the exit. */
  kill(): Promise<void>;
}

export async function startServer(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout!.on('data', (chunk) => (printed += chunk));
  child.stderr!.on('data', (chunk) => (printed += chunk));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server on port ${port} exited before it was ready:\n${printed}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server on port ${port} did not start within 60 s:\n${printed}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    child,
    output: () => printed,
    exited,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}

export interface HttpAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers' shapes themselves
  body: any;
  headers: Headers;
}

/** A call of the contract over HTTP, as the web client makes it. */
export async function callOver(
  base: string,
  name: CallName,
  body: Record<string, unknown>,
  options: { cookie?: string; idempotencyKey?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const def = api[name];
  const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER] = options.idempotencyKey;
  let url = `${base}${def.path}`;
  let payload: string | undefined;
  if (def.method === 'GET') {
    const query = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]));
    url += `?${query}`;
  } else {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(url, { method: def.method, headers, body: payload });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** The session cookie a sign-in answer set, as a Cookie header. */
export function cookieOf(answer: HttpAnswer): string {
  return answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
}

/** Headers that belong to one connection, which a proxy does not pass on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A reverse proxy that sends each request to the next upstream in turn (round robin), setting
 * X-Forwarded-For to the client's address (nginx: `proxy_set_header X-Forwarded-For $remote_addr`;
 * whatever the client sent is dropped), and naming the upstream that answered in X-Upstream. Every test
 * client is 127.0.0.1: `X-Test-Client` stands for the address of another machine.
 */
export async function roundRobinProxy(port: number, upstreams: string[]) {
  let next = 0;
  const server = http.createServer((request, response) => {
    const index = next++ % upstreams.length;
    const target = new URL(request.url ?? '/', upstreams[index]);
    const { 'x-test-client': stand, 'x-forwarded-for': _dropped, ...headers } = request.headers;
    const client = typeof stand === 'string' ? stand : (request.socket.remoteAddress ?? '');
    const upstream = http.request(
      target,
      {
        method: request.method,
        headers: {
          ...Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name))),
          'x-forwarded-for': client,
        },
      },
      (answer) => {
        // Hop-by-hop headers belong to one connection (RFC 9110 7.6.1), both ways: the client is told this
        // proxy's own keep-alive (5 s), not the app's 72 s, so it stops reusing an idle connection before
        // the proxy closes it.
        const forwarded = Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name));
        response.writeHead(answer.statusCode ?? 502, {
          ...Object.fromEntries(forwarded),
          'x-upstream': String(index),
        });
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502).end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
