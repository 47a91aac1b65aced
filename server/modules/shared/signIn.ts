/**
 * The one way a person is signed in, by password (accounts) or by single sign-on (sso): a new session in
 * the cookie, and where the browser goes next (docs/decisions/0005, 0720).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../../common/roles.ts';
import { startSession } from '../../auth/sessions.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';

export interface SigningIn {
  id: number;
  orgId: number;
  role: Role;
  subscription_status: string;
}

/** Starts the session; answers the server's redirect: an Owner of an unpaid organisation goes to /plans. */
export async function signInUser(
  ctx: { db: Db; config: Config; request: FastifyRequest; reply: FastifyReply },
  user: SigningIn,
  now: number,
): Promise<string | null> {
  await startSession(ctx.db, ctx.config, ctx.request, ctx.reply, { id: user.id, orgId: user.orgId }, now);
  const unpaidOwner = user.subscription_status !== 'active' && user.role === 'owner';
  return unpaidOwner ? '/plans' : null;
}
