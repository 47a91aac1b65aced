/** Accounts as rows: the one way a user is written (sign-up, add-user, and the tests' factories). */
import type { Role } from '../../../common/roles.ts';
import type { Db } from '../../db/index.ts';

/** An email belongs to one live account across the installation, compared case-insensitively. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export async function insertUser(
  db: Db,
  user: {
    orgId: number;
    email: string;
    /** Normally derived from the email; add-user passes a held key (users/service.ts claimEmail). */
    emailKey?: string;
    passwordHash: string | null;
    role: Role;
    verified: boolean;
  },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      org_id: user.orgId,
      email: user.email,
      email_key: user.emailKey ?? emailKey(user.email),
      password_hash: user.passwordHash,
      role: user.role,
      email_verified: user.verified ? 1 : 0,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
