/**
 * Subscriptions (docs/product-decisions.md): a number of departments, 1-500. With BILLING_PROVIDER=local (the default)
 * checkout completes on the spot, so a fresh install works end to end without a payment service; with
 * BILLING_PROVIDER=stripe it goes through Stripe Checkout, and Stripe's webhooks keep the paid state.
 */
import { randomToken } from '../../auth/tokens.ts';
import type { CallContext, UserActor } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { AppError, notFound } from '../../errors.ts';
import { orgPath } from '../shared/urls.ts';
import {
  createCheckoutSession,
  retrieveCheckoutSession,
  subscriptionState,
  type CheckoutSession,
} from './stripe.ts';

type Ctx = CallContext<UserActor>;

export const messages = {
  checkoutNotFound: 'This checkout was not found. Please choose a plan again.',
  checkoutOpen: 'The payment for this checkout has not completed yet.',
};

export async function selectSubscription(ctx: Ctx, numDepartments: number): Promise<{ url: string }> {
  const { db, now, actor, config } = ctx;
  if (config.billing.provider === 'stripe') {
    const session = await createCheckoutSession(config.billing, {
      orgId: actor.orgId,
      ownerEmail: actor.email,
      numDepartments,
      appUrl: config.appUrl,
    });
    if (!session.url)
      throw new AppError('INTERNAL', 'The payment service did not answer. Please try again later.');
    await db
      .insertInto('checkouts')
      .values({
        org_id: actor.orgId,
        checkout_id: session.id,
        provider: 'stripe',
        num_departments: numDepartments,
        status: 'open',
        created_at: now,
        completed_at: null,
      })
      .execute();
    return { url: session.url };
  }
  const checkoutId = randomToken(24);
  await db
    .insertInto('checkouts')
    .values({
      org_id: actor.orgId,
      checkout_id: checkoutId,
      provider: 'local',
      num_departments: numDepartments,
      status: 'complete',
      created_at: now,
      completed_at: now,
    })
    .execute();
  return { url: `/create-app?checkoutID=${encodeURIComponent(checkoutId)}` };
}

/** Marks a checkout complete and opens its organisation with the departments bought; repeating it changes nothing. */
export async function completeCheckout(
  db: Db,
  checkout: { id: number; orgId: number; numDepartments: number },
  session: Pick<CheckoutSession, 'customer' | 'subscription'> | null,
  now: number,
): Promise<void> {
  await db
    .updateTable('checkouts')
    .set({ status: 'complete', completed_at: now })
    .where('org_id', '=', checkout.orgId)
    .where('id', '=', checkout.id)
    .where('status', '!=', 'complete')
    .execute();
  await db
    .updateTable('organizations')
    .set({
      subscription_status: 'active',
      num_departments: checkout.numDepartments,
      ...(session?.customer ? { billing_customer_id: session.customer } : {}),
      ...(session?.subscription ? { billing_subscription_id: session.subscription } : {}),
      updated_at: now,
    })
    .where('id', '=', checkout.orgId)
    .execute();
}

/** Activates the organisation's subscription from a completed checkout; repeating it changes nothing. */
export async function createApp(ctx: Ctx, checkoutId: string): Promise<{ homeURL: string }> {
  const { db, now, actor, config } = ctx;
  const checkout = await db
    .selectFrom('checkouts')
    .select(['id', 'num_departments', 'status', 'provider'])
    .where('org_id', '=', actor.orgId)
    .where('checkout_id', '=', checkoutId)
    .executeTakeFirst();
  if (!checkout) throw notFound(messages.checkoutNotFound);
  let session: CheckoutSession | null = null;
  if (checkout.status !== 'complete') {
    // The webhook may not have arrived yet: ask Stripe directly.
    if (checkout.provider !== 'stripe' || config.billing.provider !== 'stripe')
      throw new AppError('CONFLICT', messages.checkoutOpen);
    session = await retrieveCheckoutSession(config.billing, checkoutId);
    if (session.status !== 'complete') throw new AppError('CONFLICT', messages.checkoutOpen);
  }
  await completeCheckout(
    db,
    { id: checkout.id, orgId: actor.orgId, numDepartments: checkout.num_departments },
    session,
    now,
  );
  return { homeURL: orgPath(actor.orgName, 'home') };
}

interface StripeEvent {
  type: string;
  data: { object: Record<string, unknown> };
}

/** One Stripe event, verified by the caller. Unknown events are acknowledged and ignored. */
export async function handleStripeEvent(db: Db, event: StripeEvent, now: number): Promise<void> {
  const object = event.data?.object ?? {};
  if (event.type === 'checkout.session.completed') {
    const checkout = await db
      .selectFrom('checkouts')
      .select(['id', 'org_id', 'num_departments'])
      .where('checkout_id', '=', String(object.id))
      .where('provider', '=', 'stripe')
      .executeTakeFirst();
    if (!checkout) return;
    await completeCheckout(
      db,
      { id: checkout.id, orgId: checkout.org_id, numDepartments: checkout.num_departments },
      {
        customer: (object.customer as string) ?? null,
        subscription: (object.subscription as string) ?? null,
      },
      now,
    );
    return;
  }
  if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    const state =
      event.type === 'customer.subscription.deleted' ? 'canceled' : subscriptionState(String(object.status));
    const quantity = (object.items as { data?: { quantity?: number }[] } | undefined)?.data?.[0]?.quantity;
    await db
      .updateTable('organizations')
      .set({
        subscription_status: state,
        ...(typeof quantity === 'number' && state === 'active' ? { num_departments: quantity } : {}),
        updated_at: now,
      })
      .where('billing_subscription_id', '=', String(object.id))
      .execute();
  }
}
