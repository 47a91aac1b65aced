/**
 * Stripe Checkout and its webhooks (docs/product-decisions.md, BILLING_PROVIDER=stripe), over Stripe's REST API with
 * fetch: a subscription of `numDepartments` units of STRIPE_PRICE_ID. A completed checkout opens the
 * organisation; subscription events keep its paid state in step with Stripe.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.ts';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  apiUrl: string;
}

export interface CheckoutSession {
  id: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  customer: string | null;
  subscription: string | null;
  client_reference_id: string | null;
}

const UNAVAILABLE = 'The payment service did not answer. Please try again later.';

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

async function stripe<T>(
  settings: StripeSettings,
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, string>,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${settings.apiUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${settings.secretKey}`,
        ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: body ? form(body) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
  } catch {
    throw new AppError('INTERNAL', UNAVAILABLE);
  }
  if (!response.ok) throw new AppError('INTERNAL', UNAVAILABLE);
  return (await response.json()) as T;
}

export function createCheckoutSession(
  settings: StripeSettings,
  input: { orgId: number; ownerEmail: string; numDepartments: number; appUrl: string },
): Promise<CheckoutSession> {
  return stripe<CheckoutSession>(settings, 'POST', '/v1/checkout/sessions', {
    mode: 'subscription',
    'line_items[0][price]': settings.priceId,
    'line_items[0][quantity]': String(input.numDepartments),
    success_url: `${input.appUrl}/create-app?checkoutID={CHECKOUT_SESSION_ID}`,
    cancel_url: `${input.appUrl}/plans`,
    client_reference_id: String(input.orgId),
    customer_email: input.ownerEmail,
    'metadata[org_id]': String(input.orgId),
    'subscription_data[metadata][org_id]': String(input.orgId),
  });
}

export function retrieveCheckoutSession(settings: StripeSettings, id: string): Promise<CheckoutSession> {
  return stripe<CheckoutSession>(settings, 'GET', `/v1/checkout/sessions/${encodeURIComponent(id)}`);
}

/** Stripe's webhook signature: `t=<seconds>,v1=<hex HMAC-SHA256 of "t.payload">`, within 5 minutes. */
export function verifyWebhookSignature(
  payload: string,
  header: string | undefined,
  secret: string,
  nowMs: number,
): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  ) as Record<string, string>;
  const timestamp = Number(parts.t);
  if (!Number.isFinite(timestamp) || Math.abs(nowMs / 1000 - timestamp) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${payload}`).digest('hex');
  const given = header
    .split(',')
    .filter((part) => part.trim().startsWith('v1='))
    .map((part) => part.trim().slice(3));
  return given.some(
    (signature) =>
      signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected)),
  );
}

export function signWebhookPayload(payload: string, secret: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
}

/** The paid state of an organisation for a Stripe subscription status. */
export function subscriptionState(status: string): 'active' | 'past_due' | 'canceled' {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'past_due') return 'past_due';
  return 'canceled';
}
