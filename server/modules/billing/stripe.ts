/**
 * Stripe Checkout and its webhooks (docs/product-decisions.md, BILLING_PROVIDER=stripe), through Stripe's
 * own client (`stripe` package): a subscription of `numDepartments` units of STRIPE_PRICE_ID. A completed
 * checkout opens the organisation; subscription events keep its paid state in step with Stripe.
 * STRIPE_API_URL points the client elsewhere (the tests' local stand-in); see docs/decisions/0406.
 */
import Stripe from 'stripe';
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
  /** 'open', 'complete' or 'expired'. */
  status: string | null;
  customer: string | null;
  subscription: string | null;
}

const UNAVAILABLE = 'The payment service did not answer. Please try again later.';

/** Webhook events older than this are refused (Stripe's default tolerance). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

const clients = new Map<string, Stripe>();

/** One client per key and address: it keeps its connections between calls. */
function client(settings: StripeSettings): Stripe {
  const key = `${settings.apiUrl}\n${settings.secretKey}`;
  let stripe = clients.get(key);
  if (!stripe) {
    const url = new URL(settings.apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    stripe = new Stripe(settings.secretKey, {
      host: url.hostname,
      port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
      protocol,
      timeout: 20_000,
      // The checkout is the Owner's action and is retried by the browser with its own key; one attempt here.
      maxNetworkRetries: 0,
    });
    clients.set(key, stripe);
  }
  return stripe;
}

const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === 'string' ? value : value.id;

function present(session: Stripe.Checkout.Session): CheckoutSession {
  return {
    id: session.id,
    url: session.url ?? null,
    status: session.status ?? null,
    customer: idOf(session.customer),
    subscription: idOf(session.subscription),
  };
}

/** Any failure of the payment service (no answer, time-out, an error status) is one message to the Owner. */
async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch {
    throw new AppError('INTERNAL', UNAVAILABLE);
  }
}

export async function createCheckoutSession(
  settings: StripeSettings,
  input: { orgId: number; ownerEmail: string; numDepartments: number; appUrl: string },
): Promise<CheckoutSession> {
  const session = await call(() =>
    client(settings).checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: settings.priceId, quantity: input.numDepartments }],
      success_url: `${input.appUrl}/create-app?checkoutID={CHECKOUT_SESSION_ID}`,
      cancel_url: `${input.appUrl}/plans`,
      client_reference_id: String(input.orgId),
      customer_email: input.ownerEmail,
      metadata: { org_id: String(input.orgId) },
      subscription_data: { metadata: { org_id: String(input.orgId) } },
    }),
  );
  return present(session);
}

export async function retrieveCheckoutSession(
  settings: StripeSettings,
  id: string,
): Promise<CheckoutSession> {
  return present(await call(() => client(settings).checkout.sessions.retrieve(id)));
}

/**
 * Stripe's webhook signature over the exact payload (`t=…,v1=…`), no older than five minutes at `nowMs`
 * (the server's clock, so tests can move it).
 */
export function verifyWebhookSignature(
  payload: string,
  header: string | undefined,
  secret: string,
  nowMs: number,
): boolean {
  const signature = Stripe.webhooks.signature;
  if (!header || !signature) return false;
  try {
    return signature.verifyHeader(payload, header, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, nowMs);
  } catch {
    return false;
  }
}

/** The paid state of an organisation for a Stripe subscription status. */
export function subscriptionState(status: string): 'active' | 'past_due' | 'canceled' {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'past_due') return 'past_due';
  return 'canceled';
}
