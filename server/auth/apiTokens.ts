/**
 * API tokens as credentials (docs/decisions/0584): `Authorization: Bearer cbt_…`. A token acts for the
 * administrator who made it, with the lower of that member's current role and its own rights (read: a
 * Viewer's reads; write: up to Administrator), while the member, the token and the organisation last.
 * Each token may make API_TOKEN_CALLS_PER_MINUTE calls a minute, counted atomically in its row.
 */
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { CallDef } from '../../common/api/index.ts';
import { hasRole, type Role } from '../../common/roles.ts';
import type { UserActor } from '../context.ts';
import type { Db } from '../db/index.ts';
import { forbidden, tooManyRequests, unauthenticated } from '../errors.ts';
import { hashToken, randomToken } from './tokens.ts';

export const API_TOKEN_PREFIX = 'cbt_';
export const API_TOKEN_CALLS_PER_MINUTE = 600;
const MINUTE = 60_000;

export const messages = {
  invalid: 'The API token is not valid, has expired or was revoked.',
  personOnly: 'This call needs a person signed in; an API token cannot make it.',
  readOnly: 'This API token is read-only.',
  tooMany: `Too many requests with this API token (at most ${API_TOKEN_CALLS_PER_MINUTE} a minute). Please wait a minute.`,
};

/** A new token's secret, and what is stored of it. */
export function newApiTokenSecret(): { secret: string; hash: string; prefix: string } {
  const secret = API_TOKEN_PREFIX + randomToken();
  return { secret, hash: hashToken(secret), prefix: secret.slice(0, API_TOKEN_PREFIX.length + 6) };
}

/** The bearer token of a request, if it carries one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S{1,200})\s*$/i.exec(header);
  return match ? match[1] : '';
}

const cap = (role: Role, access: 'read' | 'write'): Role => {
  const ceiling: Role = access === 'write' ? 'admin' : 'viewer';
  return hasRole(role, ceiling) ? ceiling : role;
};

/** The member a bearer token acts for on this call, or a refusal. */
export async function resolveApiToken(db: Db, token: string, call: CallDef, now: number): Promise<UserActor> {
  if (!token.startsWith(API_TOKEN_PREFIX)) throw unauthenticated(messages.invalid);
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .innerJoin('organizations', 'organizations.id', 'api_tokens.org_id')
    .select([
      'api_tokens.id as tokenId',
      'api_tokens.access',
      'api_tokens.expires_at',
      'api_tokens.revoked_at',
      'users.id as userId',
      'users.email',
      'users.role',
      'users.deleted_at',
      'users.org_id as userOrgId',
      'organizations.id as orgId',
      'organizations.name as orgName',
      'organizations.subscription_status',
    ])
    .where('api_tokens.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (
    !row ||
    row.revoked_at !== null ||
    row.deleted_at !== null ||
    row.userOrgId !== row.orgId ||
    (row.expires_at !== null && now >= row.expires_at)
  )
    throw unauthenticated(messages.invalid);
  if (call.bearer === false) throw forbidden(messages.personOnly);
  if (row.access === 'read' && call.mutates) throw forbidden(messages.readOnly);

  // One atomic update counts the call in the token's current minute (every process shares the row).
  const window = Math.floor(now / MINUTE) * MINUTE;
  const counted = await db
    .updateTable('api_tokens')
    .set({
      window_count: sql<number>`case when window_start = ${window} then window_count + 1 else 1 end`,
      window_start: window,
      last_used_at: now,
    })
    .where('id', '=', row.tokenId)
    .where('org_id', '=', row.orgId)
    .returning('window_count')
    .executeTakeFirstOrThrow();
  if (counted.window_count > API_TOKEN_CALLS_PER_MINUTE) throw tooManyRequests(messages.tooMany);

  return {
    kind: 'user',
    userId: row.userId,
    orgId: row.orgId,
    orgName: row.orgName,
    email: row.email,
    role: cap(row.role, row.access),
    paid: row.subscription_status === 'active',
    sessionId: null,
    tokenId: row.tokenId,
  };
}
