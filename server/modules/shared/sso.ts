/** What the rest of the app asks of an organisation's single sign-on (docs/decisions/0720). */
import type { Role } from '../../../common/roles.ts';
import type { Db } from '../../db/index.ts';

/**
 * Whether a member must sign in with SSO: the organisation has it on and requires it, and the member is
 * not the Owner (who keeps the password, so a broken provider never locks the organisation out).
 */
export async function passwordRefusedBySso(db: Db, orgId: number, role: Role): Promise<boolean> {
  if (role === 'owner') return false;
  const row = await db
    .selectFrom('sso_settings')
    .select(['enabled', 'require_sso'])
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row !== undefined && row.enabled === 1 && row.require_sso === 1;
}
