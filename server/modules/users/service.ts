/**
 * Users of an organisation (admins): list, invite, edit, remove. Only an Owner grants or removes Owner,
 * and the last Owner can be neither removed nor demoted (docs/product-decisions.md).
 */
import { sql } from 'kysely';
import type { User } from '../../../common/api/entities.ts';
import { roleOf, type Role } from '../../../common/roles.ts';
import { issueToken, retireTokens } from '../../auth/oneTimeTokens.ts';
import { endUserSessions } from '../../auth/sessions.ts';
import type { CallContext, UserActor } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { addAttemptMail, invitationMail, verificationMail } from '../../mail/templates.ts';
import { orgPath } from '../shared/urls.ts';
import { emailKey, insertUser } from '../shared/users.ts';

export const messages = {
  notFound: 'User not found.',
  emailExists: 'A user with this email address already exists.',
  ownerOnly: 'Only an Owner can grant or remove the Owner role.',
  lastOwnerDemoted: 'The last Owner cannot be demoted. Make another user an Owner first.',
  lastOwnerRemoved: 'The last Owner cannot be removed. Make another user an Owner first.',
};

type Flags = { isViewOnly: boolean; isEvaluator: boolean; isAdmin: boolean; isOwner: boolean };
type Ctx = CallContext<UserActor>;

function present(row: { id: number; email: string; role: Role; email_verified: 0 | 1 }): User {
  return { id: row.id, email: row.email, role: row.role, emailVerified: row.email_verified === 1 };
}

const userColumns = ['id', 'email', 'role', 'email_verified'] as const;

async function findUser(db: Db, orgId: number, id: number) {
  const user = await db
    .selectFrom('users')
    .select(userColumns)
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user) throw notFound(messages.notFound);
  return user;
}

/** The organisation's live Owners, locked on PostgreSQL so two demotions cannot both pass the check. */
async function ownerIds(ctx: Ctx): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('org_id', '=', ctx.actor.orgId)
    .where('role', '=', 'owner')
    .where('deleted_at', 'is', null)
    .$if(ctx.dialect === 'postgres', (qb) => qb.forUpdate())
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The email key a user of this organisation gets for an address. Taken in this organisation: refused (its
 * admins see its users anyway). Taken in another organisation: not said (issue 10) — the row is kept under a
 * "held" key that no sign-in, reset or other lookup ever matches (an email has no ':'), the answer is the
 * same as for a new address, and the address's owner is mailed a notice instead of an invitation.
 */
async function claimEmail(db: Db, orgId: number, email: string, exceptId?: number) {
  const key = emailKey(email);
  const held = `held:${orgId}:${key}`;
  const taken = await db
    .selectFrom('users')
    .select(['id', 'org_id'])
    .where('email_key', 'in', [key, held])
    .where('deleted_at', 'is', null)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .execute();
  if (taken.some((row) => row.org_id === orgId)) throw conflict(messages.emailExists, 'email');
  return taken.length ? { key: held, elsewhere: true } : { key, elsewhere: false };
}

function mailAddAttempt(ctx: Ctx, email: string) {
  const { actor, config } = ctx;
  const mail = addAttemptMail(email, actor.orgName, actor.email, `${config.appUrl}/login`);
  ctx.afterCommit(() => ctx.mailer.send(mail));
}

export async function listUsers(ctx: Ctx): Promise<User[]> {
  const rows = await ctx.db
    .selectFrom('users')
    .select(userColumns)
    .where('org_id', '=', ctx.actor.orgId)
    .where('deleted_at', 'is', null)
    // By address as typed, lower-cased: a held key (claimEmail) must not stand out by its place.
    .orderBy(sql`lower(email)`)
    .orderBy('id')
    .execute();
  return rows.map(present);
}

export async function addUser(ctx: Ctx, input: { email: string } & Flags): Promise<User> {
  const { db, now, actor, config } = ctx;
  const role = roleOf(input);
  if (role === 'owner' && actor.role !== 'owner') throw forbidden(messages.ownerOnly);
  const claimed = await claimEmail(db, actor.orgId, input.email);
  let id: number;
  try {
    id = await insertUser(
      db,
      {
        orgId: actor.orgId,
        email: input.email,
        emailKey: claimed.key,
        passwordHash: null,
        role,
        verified: false,
      },
      now,
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(messages.emailExists, 'email');
    throw error;
  }
  if (claimed.elsewhere) {
    mailAddAttempt(ctx, input.email);
    return { id, email: input.email, role, emailVerified: false };
  }
  const token = await issueToken(db, { id, orgId: actor.orgId }, 'invite', now);
  const link = `${config.appUrl}${orgPath(actor.orgName, `reset-password/${encodeURIComponent(token)}`)}?invite=1`;
  ctx.afterCommit(() => ctx.mailer.send(invitationMail(input.email, actor.orgName, actor.email, link)));
  return { id, email: input.email, role, emailVerified: false };
}

export async function editUser(ctx: Ctx, input: { id: number; email: string } & Flags): Promise<User> {
  const { db, now, actor, config } = ctx;
  const user = await findUser(db, actor.orgId, input.id);
  const role = roleOf(input);
  if ((user.role === 'owner' || role === 'owner') && user.role !== role && actor.role !== 'owner')
    throw forbidden(messages.ownerOnly);
  if (user.role === 'owner' && role !== 'owner') {
    const owners = await ownerIds(ctx);
    if (owners.length <= 1) throw conflict(messages.lastOwnerDemoted);
  }
  const emailChanged = emailKey(input.email) !== emailKey(user.email);
  const claimed = emailChanged ? await claimEmail(db, actor.orgId, input.email, user.id) : null;
  try {
    await db
      .updateTable('users')
      .set({
        role,
        email: input.email,
        ...(claimed ? { email_key: claimed.key, email_verified: 0 as const } : {}),
        updated_at: now,
      })
      .where('org_id', '=', actor.orgId)
      .where('id', '=', user.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(messages.emailExists, 'email');
    throw error;
  }
  if (claimed?.elsewhere) {
    // Held, never verifiable: the address's owner is told instead, and the user's sessions end.
    await retireTokens(db, { id: user.id, orgId: actor.orgId }, ['verify', 'reset', 'invite'], now);
    await endUserSessions(db, actor.orgId, user.id);
    mailAddAttempt(ctx, input.email);
  } else if (emailChanged) {
    // A new address must be confirmed by its owner before it signs in.
    await retireTokens(db, { id: user.id, orgId: actor.orgId }, ['verify'], now);
    const token = await issueToken(db, { id: user.id, orgId: actor.orgId }, 'verify', now);
    const link = `${config.appUrl}/verify?token=${encodeURIComponent(token)}`;
    ctx.afterCommit(() => ctx.mailer.send(verificationMail(input.email, actor.orgName, link)));
  }
  return {
    id: user.id,
    email: input.email,
    role,
    emailVerified: emailChanged ? false : user.email_verified === 1,
  };
}

export async function deleteUser(ctx: Ctx, id: number): Promise<{ id: number }> {
  const { db, now, actor } = ctx;
  const user = await findUser(db, actor.orgId, id);
  if (user.role === 'owner') {
    if (actor.role !== 'owner') throw forbidden(messages.ownerOnly);
    const owners = await ownerIds(ctx);
    if (owners.length <= 1) throw conflict(messages.lastOwnerRemoved);
  }
  await db
    .updateTable('users')
    .set({ deleted_at: now, updated_at: now })
    .where('org_id', '=', actor.orgId)
    .where('id', '=', id)
    .execute();
  await retireTokens(db, { id, orgId: actor.orgId }, ['verify', 'reset', 'invite'], now);
  await endUserSessions(db, actor.orgId, id);
  return { id };
}
