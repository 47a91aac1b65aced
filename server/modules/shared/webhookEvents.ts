/**
 * The webhooks' outbox (docs/decisions/0585): a change that endpoints subscribe to queues one delivery per
 * subscribed endpoint in the same transaction, so a delivery exists exactly when the change committed.
 * server/webhooks/deliver.ts sends them.
 */
import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from '../../../common/api/entities.ts';
import type { Db } from '../../db/index.ts';

/** How long a delivery is retried before it is given up. */
export const WEBHOOK_RETRY_FOR_MS = 24 * 60 * 60_000;

/**
 * An organisation's endpoints that take deliveries: enabled and not deleted. A caller that reads other things
 * first may ask whether there are any in the same statement (`exists`), and skip enqueueEvents' read when not.
 */
export function liveEndpoints(db: Db, orgId: number) {
  return db
    .selectFrom('webhook_endpoints')
    .where('webhook_endpoints.org_id', '=', orgId)
    .where('webhook_endpoints.enabled', '=', 1)
    .where('webhook_endpoints.deleted_at', 'is', null);
}

/** Queues the events (one change may be several, e.g. completed and failed) for every endpoint taking them. */
export async function enqueueEvents(
  db: Db,
  orgId: number,
  events: WebhookEvent[],
  data: Record<string, unknown>,
  now: number,
): Promise<void> {
  const endpoints = await liveEndpoints(db, orgId)
    .select(['webhook_endpoints.id', 'webhook_endpoints.events'])
    .execute();
  const queued = events.flatMap((event) =>
    endpoints.filter((e) => e.events.split(',').includes(event)).map((endpoint) => ({ event, endpoint })),
  );
  if (queued.length === 0) return;
  const created = new Date(now).toISOString();
  await db
    .insertInto('webhook_deliveries')
    .values(
      queued.map(({ event, endpoint }) => {
        const deliveryId = randomUUID();
        return {
          org_id: orgId,
          endpoint_id: endpoint.id,
          delivery_id: deliveryId,
          event,
          payload: JSON.stringify({ id: deliveryId, type: event, created, data }),
          status: 'pending' as const,
          attempts: 0,
          created_at: now,
          give_up_at: now + WEBHOOK_RETRY_FOR_MS,
          next_attempt_at: now,
          lease_until: null,
          last_attempt_at: null,
          last_status_code: null,
          last_response: null,
        };
      }),
    )
    .execute();
}
