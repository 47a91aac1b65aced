import { isValidTimeZone } from '../../../common/actions.ts';
import type { Db } from '../../db/index.ts';
import { badRequest } from '../../errors.ts';

export const orgTimeZoneMessages = { unknownTimeZone: 'Unknown time zone.' };

/** A zone the runtime knows, in its canonical spelling (`europe/paris` is refused, not guessed). */
export function checkTimeZone(timeZone: string): string {
  if (!isValidTimeZone(timeZone) || !Intl.supportedValuesOf('timeZone').concat('UTC').includes(timeZone)) {
    throw badRequest(orgTimeZoneMessages.unknownTimeZone, 'timeZone');
  }
  return timeZone;
}

/** The organisation's IANA time zone (docs/decisions/0587), in which its schedules and reports read time. */
export async function getOrgTimeZone(db: Db, orgId: number): Promise<string> {
  const row = await db
    .selectFrom('organizations')
    .select('time_zone')
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
  return row.time_zone;
}
