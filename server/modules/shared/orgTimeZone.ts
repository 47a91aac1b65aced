/**
 * STAND-IN until main's migration 0019 (organizations.time_zone) lands: the same name and signature as the
 * helper being added there, answering UTC. Replaced by main's file at the merge.
 */
import type { Db } from '../../db/index.ts';

export async function getOrgTimeZone(_db: Db, _orgId: number): Promise<string> {
  return 'UTC';
}
