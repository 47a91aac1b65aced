/** Webhook endpoints and their delivery log, for administrators (docs/decisions/0585). */
import type { Webhook, WebhookDelivery, WebhookEvent } from '../../../common/api/index.ts';
import { randomToken } from '../../auth/tokens.ts';
import type { CallContext, UserActor } from '../../context.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { WEBHOOK_RETRY_FOR_MS } from '../shared/webhookEvents.ts';
import { checkWebhookUrl } from '../../webhooks/address.ts';

export const WEBHOOKS_PER_ORGANISATION = 10;
export const DELIVERIES_PAGE = 50;

export const messages = {
  tooMany: `An organisation can have at most ${WEBHOOKS_PER_ORGANISATION} webhooks. Delete one first.`,
  notFound: 'The webhook was not found.',
  deliveryNotFound: 'The delivery was not found.',
};

type Ctx = CallContext<UserActor>;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

interface Fields {
  url: string;
  description: string;
  events: WebhookEvent[];
}

function checkUrl(ctx: Ctx, url: string) {
  const refusal = checkWebhookUrl(url, ctx.config.webhooksAllowPrivate);
  if (refusal) throw badRequest(refusal, 'url');
}

const endpointColumns = ['id', 'url', 'description', 'events', 'enabled', 'created_at'] as const;
type EndpointRow = {
  id: number;
  url: string;
  description: string;
  events: string;
  enabled: 0 | 1;
  created_at: number;
};
const present = (row: EndpointRow): Webhook => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events.split(',') as WebhookEvent[],
  enabled: row.enabled === 1,
  createdAt: iso(row.created_at)!,
});

function liveEndpoints(ctx: Ctx) {
  return ctx.db
    .selectFrom('webhook_endpoints')
    .select(endpointColumns)
    .where('org_id', '=', ctx.actor.orgId)
    .where('deleted_at', 'is', null);
}

async function findEndpoint(ctx: Ctx, id: number): Promise<EndpointRow> {
  const row = await liveEndpoints(ctx).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(messages.notFound);
  return row;
}

/** Events in the contract's order, each once. */
const eventsText = (events: WebhookEvent[]) => [...new Set(events)].join(',');

export async function listWebhooks(ctx: Ctx): Promise<Webhook[]> {
  return (await liveEndpoints(ctx).orderBy('id').execute()).map(present);
}

export async function addWebhook(ctx: Ctx, input: Fields): Promise<{ webhook: Webhook; secret: string }> {
  checkUrl(ctx, input.url);
  const live = await ctx.db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', ctx.actor.orgId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(live.n) >= WEBHOOKS_PER_ORGANISATION) throw conflict(messages.tooMany);
  const secret = `whsec_${randomToken()}`;
  const { id } = await ctx.db
    .insertInto('webhook_endpoints')
    .values({
      org_id: ctx.actor.orgId,
      url: input.url,
      description: input.description,
      events: eventsText(input.events),
      secret,
      enabled: 1,
      created_at: ctx.now,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { webhook: present(await findEndpoint(ctx, id)), secret };
}

export async function editWebhook(
  ctx: Ctx,
  input: Fields & { id: number; enabled: boolean },
): Promise<{ webhook: Webhook }> {
  await findEndpoint(ctx, input.id);
  checkUrl(ctx, input.url);
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({
      url: input.url,
      description: input.description,
      events: eventsText(input.events),
      enabled: input.enabled ? 1 : 0,
    })
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', input.id)
    .execute();
  return { webhook: present(await findEndpoint(ctx, input.id)) };
}

/** Deleted endpoints keep their log; what was still queued for them is not sent. */
export async function deleteWebhook(ctx: Ctx, id: number): Promise<{ id: number }> {
  await findEndpoint(ctx, id);
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({ deleted_at: ctx.now })
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', id)
    .execute();
  return { id };
}

const deliveryColumns = [
  'id',
  'delivery_id',
  'event',
  'status',
  'attempts',
  'created_at',
  'last_attempt_at',
  'next_attempt_at',
  'last_status_code',
  'last_response',
] as const;
type DeliveryRow = {
  id: number;
  delivery_id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: number;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_response: string | null;
};
const presentDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  deliveryID: row.delivery_id,
  event: row.event as WebhookEvent,
  status: row.status,
  attempts: row.attempts,
  createdAt: iso(row.created_at)!,
  lastAttemptAt: iso(row.last_attempt_at),
  nextAttemptAt: iso(row.next_attempt_at),
  lastStatusCode: row.last_status_code,
  lastResponse: row.last_response,
});

export async function listDeliveries(
  ctx: Ctx,
  input: { webhookID: number; beforeID?: number | null | undefined },
): Promise<WebhookDelivery[]> {
  await findEndpoint(ctx, input.webhookID);
  const rows = await ctx.db
    .selectFrom('webhook_deliveries')
    .select(deliveryColumns)
    .where('org_id', '=', ctx.actor.orgId)
    .where('endpoint_id', '=', input.webhookID)
    .$if(input.beforeID != null, (qb) => qb.where('id', '<', input.beforeID!))
    .orderBy('id', 'desc')
    .limit(DELIVERIES_PAGE)
    .execute();
  return rows.map(presentDelivery);
}

/** Sends a delivery again (same id and body, so a receiver can tell), retried for another 24 hours. */
export async function resendDelivery(ctx: Ctx, id: number): Promise<{ delivery: WebhookDelivery }> {
  const row = await ctx.db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select(['webhook_deliveries.id'])
    .where('webhook_deliveries.org_id', '=', ctx.actor.orgId)
    .where('webhook_deliveries.id', '=', id)
    .where('webhook_endpoints.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound(messages.deliveryNotFound);
  await ctx.db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      next_attempt_at: ctx.now,
      give_up_at: ctx.now + WEBHOOK_RETRY_FOR_MS,
      lease_until: null,
    })
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', id)
    .execute();
  const updated = await ctx.db
    .selectFrom('webhook_deliveries')
    .select(deliveryColumns)
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { delivery: presentDelivery(updated) };
}
