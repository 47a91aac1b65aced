/**
 * The account life of SPEC §2/§4 as docs/product-decisions.md settles it: sign-up with email verification, sign-in
 * with a rate limit, password reset. Answers that could reveal whether an account exists do not.
 */
import { LOGIN_FAILURES_MAX, LOGIN_FAILURE_WINDOW_MS } from '../../../common/constants.ts';
import { ssoMessages } from '../../../common/sso.ts';
import { nameKey } from '../../../common/validation.ts';
import { findToken, issueToken, retireTokens, useToken } from '../../auth/oneTimeTokens.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../auth/passwords.ts';
import { clearEvents, deleteEvent, takeEvent } from '../../auth/rateLimit.ts';
import { endUserSessions } from '../../auth/sessions.ts';
import type { CallContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { AppError, badRequest, conflict, forbidden, tooManyRequests } from '../../errors.ts';
import { passwordResetMail, signupAttemptMail, verificationMail } from '../../mail/templates.ts';
import { checkTimeZone } from '../shared/orgTimeZone.ts';
import { signInUser } from '../shared/signIn.ts';
import { passwordRefusedBySso } from '../shared/sso.ts';
import { orgPath } from '../shared/urls.ts';
import { emailKey, insertUser } from '../shared/users.ts';

export const messages = {
  orgExists: 'An organisation with this name already exists.',
  /** SPEC §8's sign-up fallback: what a sign-up racing another with the same address is told. */
  tryAgain: 'There was an error with your request. Please try again.',
  badCredentials: 'Incorrect email or password.',
  tooManyFailures: 'Too many failed sign-in attempts. Please wait 15 minutes and try again.',
  unverified: 'Please verify your email address before signing in. We sent you a link when you signed up.',
  badVerifyLink: 'This verification link is not valid or has expired. Sign in to have a new one sent.',
  badResetLink: 'This link is not valid or has expired. Please request a new password reset.',
  tooManyResets: 'Too many password reset requests. Please try again later.',
  tooManySignups: 'Too many sign-up requests. Please try again later.',
};

const HOUR = 60 * 60_000;
const RESETS_PER_ACCOUNT_PER_HOUR = 5;
const RESETS_PER_ADDRESS_PER_HOUR = 20;
const VERIFICATIONS_PER_ACCOUNT_PER_HOUR = 5;
/** Sign-ups (each mails an address): per client address (config) and per email address, like reset. */
export const SIGNUPS_PER_EMAIL_PER_HOUR = 3;

async function findLiveUser(db: Db, email: string) {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.org_id')
    .select([
      'users.id',
      'users.org_id as orgId',
      'users.email',
      'users.password_hash',
      'users.email_verified',
      'users.role',
      'organizations.name as orgName',
      'organizations.name_key as orgKey',
      'organizations.subscription_status',
    ])
    .where('users.email_key', '=', emailKey(email))
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function signup(
  ctx: CallContext,
  input: { orgname: string; email: string; password: string; timeZone?: string | undefined },
) {
  const { db, now, config, request } = ctx;
  // Checked before anything is counted or written; without one the organisation starts in UTC.
  const timeZone = input.timeZone === undefined ? 'UTC' : checkTimeZone(input.timeZone);
  // Counted atomically; a refused or failed sign-up rolls back with its transaction, slots included.
  const since = now - HOUR;
  const byAddress = `signup-ip:${request.ip}`;
  const byEmail = `signup:${emailKey(input.email)}`;
  if (
    (await takeEvent(db, ctx.dialect, byAddress, since, now, config.signupsPerAddressPerHour)) === null ||
    (await takeEvent(db, ctx.dialect, byEmail, since, now, SIGNUPS_PER_EMAIL_PER_HOUR)) === null
  ) {
    throw tooManyRequests(messages.tooManySignups);
  }
  const orgTaken = await db
    .selectFrom('organizations')
    .select('id')
    .where('name_key', '=', nameKey(input.orgname))
    .executeTakeFirst();
  if (orgTaken) throw conflict(messages.orgExists, 'orgname');
  // Hashed either way, so a registered address does not answer faster.
  const passwordHash = await hashPassword(input.password);
  const registered = await findLiveUser(db, input.email);
  if (registered) {
    // The same answer as a new sign-up (issue 10); the address's owner is told instead.
    const link = `${config.appUrl}${orgPath(registered.orgName, 'login')}`;
    ctx.afterCommit(() => ctx.mailer.send(signupAttemptMail(registered.email, link)));
    return { email: input.email };
  }
  let orgId: number;
  let userId: number;
  try {
    const org = await db
      .insertInto('organizations')
      .values({
        name: input.orgname,
        name_key: nameKey(input.orgname),
        subscription_status: 'none',
        num_departments: 0,
        billing_customer_id: null,
        billing_subscription_id: null,
        time_zone: timeZone,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    orgId = org.id;
    userId = await insertUser(
      db,
      { orgId, email: input.email, passwordHash, role: 'owner', verified: false },
      now,
    );
  } catch (error) {
    // Another sign-up took the name or the address between the checks and the insert.
    if (isUniqueViolation(error)) {
      // Which one is not said for the address (issue 10): a retry gets the registered-address answer.
      throw String((error as Error).message).includes('email')
        ? conflict(messages.tryAgain)
        : conflict(messages.orgExists, 'orgname');
    }
    throw error;
  }
  const token = await issueToken(db, { id: userId, orgId }, 'verify', now);
  const link = `${config.appUrl}/verify?token=${encodeURIComponent(token)}`;
  ctx.afterCommit(() => ctx.mailer.send(verificationMail(input.email, input.orgname, link)));
  return { email: input.email };
}

export async function verifyEmail(ctx: CallContext, token: string) {
  const { db, now } = ctx;
  const record = await findToken(db, token, ['verify']);
  if (!record) throw badRequest(messages.badVerifyLink);
  const user = await db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.org_id')
    .select(['users.id', 'users.email_verified', 'users.deleted_at', 'organizations.name as orgName'])
    .where('users.id', '=', record.userId)
    .where('users.org_id', '=', record.orgId)
    .executeTakeFirst();
  if (!user || user.deleted_at !== null) throw badRequest(messages.badVerifyLink);
  const answer = { orgName: user.orgName, redirectURL: orgPath(user.orgName, 'login') };
  // A link opened twice (mail scanners open links too) still says the address is verified.
  if (record.usedAt !== null) {
    if (user.email_verified === 1) return answer;
    throw badRequest(messages.badVerifyLink);
  }
  if (record.expiresAt <= now || !(await useToken(db, record, now))) throw badRequest(messages.badVerifyLink);
  await db
    .updateTable('users')
    .set({ email_verified: 1, updated_at: now })
    .where('org_id', '=', record.orgId)
    .where('id', '=', user.id)
    .execute();
  return answer;
}

export async function resendVerification(ctx: CallContext, email: string) {
  const { db, now, config } = ctx;
  const bucket = `verify:${emailKey(email)}`;
  if (
    (await takeEvent(db, ctx.dialect, bucket, now - HOUR, now, VERIFICATIONS_PER_ACCOUNT_PER_HOUR)) === null
  )
    return {};
  const user = await findLiveUser(db, email);
  if (!user || user.email_verified === 1 || !user.password_hash) return {};
  await retireTokens(db, { id: user.id, orgId: user.orgId }, ['verify'], now);
  const token = await issueToken(db, { id: user.id, orgId: user.orgId }, 'verify', now);
  const link = `${config.appUrl}/verify?token=${encodeURIComponent(token)}`;
  ctx.afterCommit(() => ctx.mailer.send(verificationMail(user.email, user.orgName, link)));
  return {};
}

export async function login(
  ctx: CallContext,
  input: { username: string; password: string; orgName?: string | undefined },
) {
  const { db, dialect, now, config, request, reply } = ctx;
  const bucket = `login:${emailKey(input.username)}`;
  // The attempt is counted before the password is checked (issue 10): 40 at once cannot all be checked.
  const attempt = await takeEvent(
    db,
    dialect,
    bucket,
    now - LOGIN_FAILURE_WINDOW_MS,
    now,
    LOGIN_FAILURES_MAX,
  );
  if (attempt === null) throw tooManyRequests(messages.tooManyFailures);
  const user = await findLiveUser(db, input.username);
  // A failure keeps its counted attempt.
  const fail = () => new AppError('UNAUTHENTICATED', messages.badCredentials);
  if (!user || !user.password_hash) {
    await verifyAgainstDummy(input.password);
    throw fail();
  }
  if (!(await verifyPassword(user.password_hash, input.password))) throw fail();
  // /q/{org}/login refuses an account of another organisation with the same message (docs/product-decisions.md).
  if (input.orgName !== undefined && input.orgName !== '' && nameKey(input.orgName) !== user.orgKey)
    throw fail();
  // Told only to who gave the right password (decision 0720): the Owner always keeps the password.
  if (await passwordRefusedBySso(db, user.orgId, user.role)) {
    await deleteEvent(db, attempt);
    throw forbidden(ssoMessages.ssoRequired);
  }
  if (user.email_verified !== 1) {
    await deleteEvent(db, attempt);
    throw new AppError('FORBIDDEN', messages.unverified);
  }

  await clearEvents(db, bucket);
  const redirectURL = await signInUser({ db, config, request, reply }, user, now);
  return { orgName: user.orgName, redirectURL };
}

export async function requestPasswordReset(ctx: CallContext, email: string) {
  const { db, now, config, request } = ctx;
  const accountBucket = `reset:${emailKey(email)}`;
  const addressBucket = `reset-ip:${request.ip}`;
  // Counted atomically (the refusal rolls the transaction back, slots included).
  if (
    (await takeEvent(db, ctx.dialect, accountBucket, now - HOUR, now, RESETS_PER_ACCOUNT_PER_HOUR)) ===
      null ||
    (await takeEvent(db, ctx.dialect, addressBucket, now - HOUR, now, RESETS_PER_ADDRESS_PER_HOUR)) === null
  ) {
    throw tooManyRequests(messages.tooManyResets);
  }
  const user = await findLiveUser(db, email);
  // The same answer whether or not the account exists, or must sign in with SSO (no link: decision 0720).
  if (!user || (await passwordRefusedBySso(db, user.orgId, user.role))) return {};
  await retireTokens(db, { id: user.id, orgId: user.orgId }, ['reset'], now);
  const token = await issueToken(db, { id: user.id, orgId: user.orgId }, 'reset', now);
  const link = `${config.appUrl}${orgPath(user.orgName, `reset-password/${encodeURIComponent(token)}`)}`;
  ctx.afterCommit(() => ctx.mailer.send(passwordResetMail(user.email, link)));
  return {};
}

/** Sets a password from a reset or invitation link. Every session of the user ends. */
export async function resetPassword(
  ctx: CallContext,
  input: { username: string; password1: string; token: string },
) {
  const { db, now } = ctx;
  const record = await findToken(db, input.token, ['reset', 'invite']);
  if (!record || record.usedAt !== null || record.expiresAt <= now) throw badRequest(messages.badResetLink);
  const user = await db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.org_id')
    .select(['users.id', 'users.email_key', 'users.role', 'organizations.name as orgName'])
    .where('users.id', '=', record.userId)
    .where('users.org_id', '=', record.orgId)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user || user.email_key !== emailKey(input.username))
    throw badRequest(messages.badResetLink, 'username');
  // A link sent before the organisation required SSO sets no password now (decision 0720).
  if (await passwordRefusedBySso(db, record.orgId, user.role)) throw forbidden(ssoMessages.ssoRequired);
  if (!(await useToken(db, record, now))) throw badRequest(messages.badResetLink);
  const passwordHash = await hashPassword(input.password1);
  // The link came to this address, so it is verified too.
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, email_verified: 1, updated_at: now })
    .where('org_id', '=', record.orgId)
    .where('id', '=', user.id)
    .execute();
  await retireTokens(db, { id: user.id, orgId: record.orgId }, ['reset', 'invite'], now);
  await endUserSessions(db, record.orgId, user.id);
  await clearEvents(db, `login:${user.email_key}`);
  return { redirectURL: orgPath(user.orgName, 'login') };
}
