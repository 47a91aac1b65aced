/**
 * GET /metrics in Prometheus's text format (decision 0603), only when METRICS_TOKEN is set (otherwise the
 * path is not found), and only with `Authorization: Bearer <METRICS_TOKEN>`. Requests are counted and
 * timed per contract call name (the route's `call`), never per raw URL: ids, keys and tokens in paths or
 * queries never become labels. The database pool's use is read when scraped.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract call a route serves: the metrics' label. */
    call?: string;
  }
}

export const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The label for a request: its call, or the few fixed names of what is not a call. */
function routeLabel(request: FastifyRequest): string {
  const config = request.routeOptions.config as { call?: string } | undefined;
  if (config?.call) return config.call;
  const url = request.routeOptions.url;
  if (url === '/healthz') return 'healthz';
  if (url === '/metrics') return 'metrics';
  if (url === undefined) return request.url.startsWith('/api/') ? 'api_not_found' : 'not_found';
  return url.startsWith('/api/') ? 'api_other' : 'web';
}

export function registerMetrics(
  app: FastifyInstance,
  token: string | undefined,
  poolStats: () => PoolStats,
): void {
  if (!token) return;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'checkboard_http_requests_total',
    help: 'Requests answered, by contract call, method and status code.',
    labelNames: ['call', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'checkboard_http_request_duration_seconds',
    help: 'Time to answer a request, by contract call and method.',
    labelNames: ['call', 'method'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [registry],
  });
  new Gauge({
    name: 'checkboard_db_pool_connections',
    help: 'Database connections of this process: open (total), idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = poolStats();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'checkboard_db_pool_max_connections',
    help: 'The most database connections this process opens.',
    registers: [registry],
    collect() {
      this.set(poolStats().max);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    const call = routeLabel(request);
    requests.inc({ call, method: request.method, status: String(reply.statusCode) });
    duration.observe({ call, method: request.method }, reply.elapsedTime / 1000);
  });

  const expected = digest(`Bearer ${token}`);
  app.get('/metrics', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const given = request.headers.authorization;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8')
        .send('A valid metrics token is required.');
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
