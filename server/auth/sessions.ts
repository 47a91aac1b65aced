/**
 * Sessions (docs/product-decisions.md): an opaque token in an HttpOnly cookie, stored hashed; a readable
 * `session_expiry` cookie tells the browser when it ends. Idle 30 minutes, absolute 12 hours.
 */
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../common/constants.ts';
import type { Config } from '../config.ts';
import type { UserActor } from '../context.ts';
import type { Db } from '../db/index.ts';
import { preparedQuery } from '../db/prepared.ts';
import { hashToken, randomToken } from './tokens.ts';

export const SESSION_COOKIE = 'cb_session';
export const EXPIRY_COOKIE = 'session_expiry';

export function secureCookies(config: Config, request: FastifyRequest): boolean {
  return config.appUrl.startsWith('https:') || request.protocol === 'https';
}

function setCookies(
  config: Config,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  expiresAt: number,
  absoluteAt: number,
) {
  const secure = secureCookies(config, request);
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: new Date(absoluteAt),
  });
  reply.setCookie(EXPIRY_COOKIE, String(expiresAt), {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure,
    expires: new Date(absoluteAt),
  });
}

export function clearSessionCookies(config: Config, request: FastifyRequest, reply: FastifyReply) {
  const secure = secureCookies(config, request);
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  reply.clearCookie(EXPIRY_COOKIE, { path: '/', sameSite: 'lax', secure });
}

/**
 * Writes a new session for the user and answers its token (only its hash is stored) and expiries. The
 * lifetimes are the house's (ASVS L2); the benchmark asks for a longer idle time.
 */
export async function insertSession(
  db: Db,
  user: { id: number; orgId: number },
  now: number,
  idleMs = SESSION_IDLE_MS,
): Promise<{ token: string; idle: number; absolute: number }> {
  const token = randomToken();
  const idle = now + idleMs;
  const absolute = now + SESSION_ABSOLUTE_MS;
  await db
    .insertInto('sessions')
    .values({
      org_id: user.orgId,
      user_id: user.id,
      token_hash: hashToken(token),
      created_at: now,
      last_seen_at: now,
      idle_expires_at: idle,
      absolute_expires_at: absolute,
    })
    .execute();
  return { token, idle, absolute };
}

export async function startSession(
  db: Db,
  config: Config,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: number; orgId: number },
  now: number,
): Promise<void> {
  const { token, idle, absolute } = await insertSession(db, user, now);
  setCookies(config, request, reply, token, Math.min(idle, absolute), absolute);
}

export function sessionToken(request: FastifyRequest): string | undefined {
  const token = request.cookies[SESSION_COOKIE];
  return token && token.length <= 200 ? token : undefined;
}

/** Every signed-in request's lookup: prepared once (decision 0753). */
const sessionByToken = preparedQuery((db, p: { tokenHash: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('organizations', 'organizations.id', 'sessions.org_id')
    .select([
      'sessions.id as sessionId',
      'sessions.idle_expires_at',
      'sessions.absolute_expires_at',
      'users.id as userId',
      'users.email',
      'users.role',
      'users.deleted_at',
      'organizations.id as orgId',
      'organizations.name as orgName',
      'organizations.subscription_status',
    ])
    .where('sessions.token_hash', '=', p.tokenHash),
);

/** The signed-in user of a request, or null when there is no live session. */
export async function resolveSession(
  db: Db,
  token: string | undefined,
  now: number,
): Promise<UserActor | null> {
  if (!token) return null;
  const row = await sessionByToken.first(db, { tokenHash: hashToken(token) });
  if (!row || row.deleted_at !== null) return null;
  if (now >= row.idle_expires_at || now >= row.absolute_expires_at) return null;
  return {
    kind: 'user',
    userId: row.userId,
    orgId: row.orgId,
    orgName: row.orgName,
    email: row.email,
    role: row.role,
    paid: row.subscription_status === 'active',
    sessionId: row.sessionId,
    tokenId: null,
  };
}

/** Slides the idle expiry (never past the absolute one) and rewrites the cookies. */
export async function refreshSession(
  db: Db,
  config: Config,
  request: FastifyRequest,
  reply: FastifyReply,
  held: { orgId: number; sessionId: number },
  now: number,
): Promise<void> {
  const session = await db
    .selectFrom('sessions')
    .select(['absolute_expires_at'])
    .where('org_id', '=', held.orgId)
    .where('id', '=', held.sessionId)
    .executeTakeFirstOrThrow();
  const idle = Math.min(now + SESSION_IDLE_MS, session.absolute_expires_at);
  await db
    .updateTable('sessions')
    .set({ idle_expires_at: idle, last_seen_at: now })
    .where('org_id', '=', held.orgId)
    .where('id', '=', held.sessionId)
    .execute();
  setCookies(config, request, reply, sessionToken(request)!, idle, session.absolute_expires_at);
}

export async function endSession(db: Db, held: { orgId: number; sessionId: number }): Promise<void> {
  await db.deleteFrom('sessions').where('org_id', '=', held.orgId).where('id', '=', held.sessionId).execute();
}

/** Ends every session of a user: sign-out everywhere, password reset, deletion. */
export async function endUserSessions(db: Db, orgId: number, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
}

export async function purgeExpiredSessions(db: Db, now: number): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('idle_expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
    .execute();
}
