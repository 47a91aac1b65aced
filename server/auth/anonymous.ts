/**
 * Anonymous keys (docs/product-decisions.md). A key is an HMAC, under the server's secret, of its row's id: unguessable
 * without the secret, and stored only as a hash. Each board has one key per rotation period; the key
 * names the organisation and board, so an -anon call's request fields can only narrow, never widen.
 */
import type { AnonymousActor } from '../context.ts';
import type { Db } from '../db/index.ts';
import { notFound } from '../errors.ts';
import { nameKey } from '../../common/validation.ts';
import { hashToken, hmac } from './tokens.ts';

export const ANONYMOUS_KEY_INVALID = 'This link has expired or is not valid. Please scan the QR code again.';

export function keyForRow(secret: string, keyId: number): string {
  return hmac(secret, `anonymous-key:${keyId}`).slice(0, 32);
}

export function periodOf(now: number, rotationMinutes: number): number {
  return Math.floor(now / (rotationMinutes * 60_000));
}

export interface AnonymousRequestFields {
  orgName: string;
  boardID: number;
  anonKey: string;
}

/**
 * The key holder of an -anon call: the key must exist, be unrevoked, belong to the named organisation and
 * board, and that board must still take anonymous evaluations. Any failure is one "not found".
 */
export async function resolveAnonymousActor(db: Db, fields: AnonymousRequestFields): Promise<AnonymousActor> {
  const row = await db
    .selectFrom('anonymous_keys')
    .innerJoin('boards', 'boards.id', 'anonymous_keys.board_id')
    .innerJoin('organizations', 'organizations.id', 'anonymous_keys.org_id')
    .select([
      'anonymous_keys.id as keyId',
      'anonymous_keys.period',
      'anonymous_keys.revoked_at',
      'boards.id as boardId',
      'boards.has_anonymous',
      'boards.deleted_at',
      'organizations.id as orgId',
      'organizations.name as orgName',
      'organizations.name_key as orgKey',
      'organizations.subscription_status',
    ])
    .where('anonymous_keys.key_hash', '=', hashToken(fields.anonKey))
    .whereRef('boards.org_id', '=', 'anonymous_keys.org_id')
    .executeTakeFirst();
  if (
    !row ||
    row.revoked_at !== null ||
    row.deleted_at !== null ||
    row.has_anonymous !== 1 ||
    row.boardId !== fields.boardID ||
    row.orgKey !== nameKey(fields.orgName)
  ) {
    throw notFound(ANONYMOUS_KEY_INVALID);
  }
  return {
    kind: 'anonymous',
    orgId: row.orgId,
    orgName: row.orgName,
    boardId: row.boardId,
    keyId: row.keyId,
    keyPeriod: row.period,
    paid: row.subscription_status === 'active',
  };
}
