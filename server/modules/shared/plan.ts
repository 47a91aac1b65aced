/**
 * The plan (docs/product-decisions.md, Billing): a subscription buys departments; each one allows one
 * board and CARDS_PER_DEPARTMENT cards. Used by the boards and cards modules to count and to refuse.
 */
import { nameKey } from '../../../common/validation.ts';
import type { CallContext, UserActor } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../errors.ts';

function planLimit(total: number, noun: 'board' | 'card'): string {
  return `Your plan allows ${total} ${noun}${total === 1 ? '' : 's'}. Choose a larger plan to add more.`;
}

export const planMessages = {
  organisationNotFound: 'The organisation was not found.',
  boardPlanLimit: (total: number) => planLimit(total, 'board'),
  cardPlanLimit: (total: number) => planLimit(total, 'card'),
};

/** usage calls take an optional orgName that can only narrow: another organisation's name is not found. */
export function checkOwnOrganisation(actor: UserActor, orgName: string | undefined) {
  const given = orgName?.trim();
  if (given && nameKey(given) !== nameKey(actor.orgName)) throw notFound(planMessages.organisationNotFound);
}

/**
 * The organisation's departments. `lock` takes its row on PostgreSQL, so two creations in the same
 * organisation cannot both take the plan's last place (SQLite serialises writers anyway). A no-key lock
 * leaves every other table's references to the organisation free.
 */
export async function departmentsOf(ctx: CallContext<UserActor>, lock = false): Promise<number> {
  const org = await ctx.db
    .selectFrom('organizations')
    .select('num_departments')
    .where('id', '=', ctx.actor.orgId)
    .$if(lock && ctx.dialect === 'postgres', (qb) => qb.forNoKeyUpdate())
    .executeTakeFirstOrThrow();
  return org.num_departments;
}

/** How many live (not deleted) boards or cards the organisation has. */
export async function liveCount(db: Db, table: 'boards' | 'cards', orgId: number): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
