/** The organisation's own settings (docs/decisions/0587). */
import { isValidTimeZone } from '../../../common/actions.ts';
import type { CallContext, UserActor } from '../../context.ts';

type MemberContext = CallContext<UserActor>;
import { badRequest } from '../../errors.ts';

export const messages = { unknownTimeZone: 'Unknown time zone.' };

/** A zone the runtime knows, in its canonical spelling (`europe/paris` is refused, not guessed). */
export function checkTimeZone(timeZone: string): string {
  if (!isValidTimeZone(timeZone) || !Intl.supportedValuesOf('timeZone').concat('UTC').includes(timeZone)) {
    throw badRequest(messages.unknownTimeZone, 'timeZone');
  }
  return timeZone;
}

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
