/**
 * Subscriptions (DECISIONS.md): a number of departments, 1-500. With BILLING_PROVIDER=local (the default)
 * checkout completes on the spot, so a fresh install works end to end without a payment service.
 */
import { randomToken } from '../../auth/tokens.ts';
import type { CallContext, UserActor } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { orgPath } from '../accounts/urls.ts';

type Ctx = CallContext<UserActor>;

export const messages = {
  checkoutNotFound: 'This checkout was not found. Please choose a plan again.',
  checkoutOpen: 'The payment for this checkout has not completed yet.',
  providerUnavailable: 'Online payment is not available on this installation. Please contact support.',
};

export async function selectSubscription(ctx: Ctx, numDepartments: number): Promise<{ url: string }> {
  const { db, now, actor, config } = ctx;
  if (config.billing.provider !== 'local') throw new AppError('INTERNAL', messages.providerUnavailable);
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

/** Activates the organisation's subscription from a completed checkout; repeating it changes nothing. */
export async function createApp(ctx: Ctx, checkoutId: string): Promise<{ homeURL: string }> {
  const { db, now, actor } = ctx;
  const checkout = await db
    .selectFrom('checkouts')
    .select(['id', 'num_departments', 'status'])
    .where('org_id', '=', actor.orgId)
    .where('checkout_id', '=', checkoutId)
    .executeTakeFirst();
  if (!checkout) throw notFound(messages.checkoutNotFound);
  if (checkout.status !== 'complete') throw new AppError('CONFLICT', messages.checkoutOpen);
  await db
    .updateTable('organizations')
    .set({ subscription_status: 'active', num_departments: checkout.num_departments, updated_at: now })
    .where('id', '=', actor.orgId)
    .execute();
  return { homeURL: orgPath(actor.orgName, 'home') };
}
