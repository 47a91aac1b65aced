import type { Db } from '../../db/index.ts';

/** The organisation's IANA time zone (docs/decisions/0587), in which its schedules and reports read time. */
export async function getOrgTimeZone(db: Db, orgId: number): Promise<string> {
  const row = await db
    .selectFrom('organizations')
    .select('time_zone')
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
  return row.time_zone;
}
