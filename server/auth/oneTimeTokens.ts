/** Verification, reset and invitation tokens: 256 random bits, stored hashed, single use, expiring. */
import { INVITE_TOKEN_TTL_MS, RESET_TOKEN_TTL_MS, VERIFY_TOKEN_TTL_MS } from '../../common/constants.ts';
import type { Db } from '../db/index.ts';
import type { TokenPurpose } from '../db/schema.ts';
import { hashToken, randomToken } from './tokens.ts';

const LIFETIME: Record<TokenPurpose, number> = {
  verify: VERIFY_TOKEN_TTL_MS,
  reset: RESET_TOKEN_TTL_MS,
  invite: INVITE_TOKEN_TTL_MS,
};

export async function issueToken(
  db: Db,
  user: { id: number; orgId: number },
  purpose: TokenPurpose,
  now: number,
): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('one_time_tokens')
    .values({
      org_id: user.orgId,
      user_id: user.id,
      purpose,
      token_hash: hashToken(token),
      created_at: now,
      expires_at: now + LIFETIME[purpose],
      used_at: null,
    })
    .execute();
  return token;
}

export interface TokenRecord {
  id: number;
  orgId: number;
  userId: number;
  purpose: TokenPurpose;
  expiresAt: number;
  usedAt: number | null;
}

export async function findToken(
  db: Db,
  token: string,
  purposes: TokenPurpose[],
): Promise<TokenRecord | null> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select(['id', 'org_id', 'user_id', 'purpose', 'expires_at', 'used_at'])
    .where('token_hash', '=', hashToken(token))
    .where('purpose', 'in', purposes)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    orgId: row.org_id,
    userId: row.user_id,
    purpose: row.purpose,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
  };
}

/** Marks a token used; false when another request used it first. */
export async function useToken(db: Db, token: { id: number; orgId: number }, now: number): Promise<boolean> {
  const result = await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('org_id', '=', token.orgId)
    .where('id', '=', token.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Earlier tokens of the same purpose stop working when a new one is sent or one is used. */
export async function retireTokens(
  db: Db,
  user: { id: number; orgId: number },
  purposes: TokenPurpose[],
  now: number,
): Promise<void> {
  await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('org_id', '=', user.orgId)
    .where('user_id', '=', user.id)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}
