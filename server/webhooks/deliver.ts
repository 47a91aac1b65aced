/**
 * Sends queued webhook deliveries (decision 0585). Every process runs this loop; each delivery is claimed
 * with a lease by one atomic update, so two processes never send it at the same time, and one that dies
 * mid-send lets another retry after the lease. At least once: a receiver deduplicates by Checkboard-Delivery.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../context.ts';
import { repeat } from '../jobs/repeat.ts';
import { guardedLookup } from './address.ts';

export const DELIVERY_TIMEOUT_MS = 10_000;
export const DELIVERY_LEASE_MS = 60_000;
export const WEBHOOK_POLL_MS = 2_000;
const BATCH = 20;
const RESPONSE_KEPT = 1_000;

/** The wait before attempt n + 1 (n ≥ 1): 30 s, doubling, at most an hour. */
export const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 60 * 60_000);

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, as Stripe signs. */
export function signature(secret: string, timestampSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}

interface Sent {
  status: number | null;
  response: string;
}

function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean,
): Promise<Sent> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? https : http).request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: guardedLookup(allowPrivate),
        timeout: DELIVERY_TIMEOUT_MS,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (text.length < RESPONSE_KEPT) text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? null, response: text.slice(0, RESPONSE_KEPT) }),
        );
        response.on('error', (error) =>
          resolve({ status: response.statusCode ?? null, response: error.message }),
        );
      },
    );
    request.on('timeout', () =>
      request.destroy(new Error(`No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`)),
    );
    request.on('error', (error) => resolve({ status: null, response: error.message }));
    request.end(body);
  });
}

/** Sends what is due now; answers how many were attempted. */
export async function deliverDue(services: Services, now = services.clock.now()): Promise<number> {
  const { db } = services;
  const due = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'org_id'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(BATCH)
    .execute();
  let attempted = 0;
  for (const { id, org_id } of due) {
    const claimed = await db
      .updateTable('webhook_deliveries')
      .set({ lease_until: now + DELIVERY_LEASE_MS })
      .where('org_id', '=', org_id)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    attempted += 1;
    await attempt(services, org_id, id, now);
  }
  return attempted;
}

async function attempt(services: Services, orgId: number, id: number, now: number) {
  const { db } = services;
  const row = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select([
      'webhook_deliveries.delivery_id',
      'webhook_deliveries.event',
      'webhook_deliveries.payload',
      'webhook_deliveries.attempts',
      'webhook_deliveries.give_up_at',
      'webhook_endpoints.url',
      'webhook_endpoints.secret',
      'webhook_endpoints.enabled',
      'webhook_endpoints.deleted_at',
    ])
    .where('webhook_deliveries.org_id', '=', orgId)
    .where('webhook_deliveries.id', '=', id)
    .executeTakeFirstOrThrow();
  const finish = (set: {
    status: 'pending' | 'delivered' | 'failed';
    last_status_code: number | null;
    last_response: string;
    next_attempt_at: number | null;
    attempts: number;
  }) =>
    db
      .updateTable('webhook_deliveries')
      .set({ ...set, last_attempt_at: now, lease_until: null })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();

  if (row.deleted_at !== null || row.enabled !== 1) {
    await finish({
      status: 'failed',
      last_status_code: null,
      last_response: 'The endpoint was disabled or deleted.',
      next_attempt_at: null,
      attempts: row.attempts,
    });
    return;
  }
  const timestamp = Math.floor(now / 1000);
  const sent = await post(
    row.url,
    {
      'content-type': 'application/json',
      'user-agent': 'Checkboard-Webhooks/1',
      'checkboard-delivery': row.delivery_id,
      'checkboard-event': row.event,
      'checkboard-signature': signature(row.secret, timestamp, row.payload),
    },
    row.payload,
    services.config.webhooksAllowPrivate,
  );
  const attempts = row.attempts + 1;
  if (sent.status !== null && sent.status >= 200 && sent.status < 300) {
    await finish({
      status: 'delivered',
      last_status_code: sent.status,
      last_response: sent.response,
      next_attempt_at: null,
      attempts,
    });
    return;
  }
  const next = now + backoffMs(attempts);
  await finish({
    status: next > row.give_up_at ? 'failed' : 'pending',
    last_status_code: sent.status,
    last_response: sent.response,
    next_attempt_at: next > row.give_up_at ? null : next,
    attempts,
  });
}

/** The loop in the app process: every WEBHOOK_POLL_MS, never two rounds at once in one process. */
export function startWebhookDelivery(services: Services, log: FastifyBaseLogger): () => void {
  return repeat(
    () => deliverDue(services),
    WEBHOOK_POLL_MS,
    (error) => log.error({ err: error }, 'webhook delivery failed'),
  );
}
