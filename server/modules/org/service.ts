/** The organisation's own settings (docs/decisions/0587). */
import type { CallContext, UserActor } from '../../context.ts';

type MemberContext = CallContext<UserActor>;
import { checkTimeZone } from '../shared/orgTimeZone.ts';

export { orgTimeZoneMessages as messages } from '../shared/orgTimeZone.ts';

async function settings(ctx: MemberContext) {
  const row = await ctx.db
    .selectFrom('organizations')
    .select(['name', 'time_zone'])
    .where('id', '=', ctx.actor.orgId)
    .executeTakeFirstOrThrow();
  return { orgName: row.name, timeZone: row.time_zone };
}

export const getOrgSettings = (ctx: MemberContext) => settings(ctx);

export async function setOrgSettings(ctx: MemberContext, input: { timeZone: string }) {
  const timeZone = checkTimeZone(input.timeZone);
  await ctx.db
    .updateTable('organizations')
    .set({ time_zone: timeZone, updated_at: ctx.now })
    .where('id', '=', ctx.actor.orgId)
    .execute();
  return settings(ctx);
}
