/**
 * Single sign-on with OpenID Connect per organisation (docs/decisions/0720): the Owner's settings, the
 * start of a sign-in (state, nonce and PKCE verifier kept in the database, used once), and its completion
 * at the callback, which signs the person in the way a password does and adds an unknown, verified
 * address as a member just in time.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SSO_CALLBACK_PATH, ssoMessages, type SsoFailure, type SsoRole } from '../../../common/sso.ts';
import { nameKey } from '../../../common/validation.ts';
import { clearEvents, takeEvent } from '../../auth/rateLimit.ts';
import { secureCookies } from '../../auth/sessions.ts';
import { hashToken, randomToken } from '../../auth/tokens.ts';
import type { CallContext, Services, UserActor } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { AppError, badRequest, tooManyRequests } from '../../errors.ts';
import { signInUser } from '../shared/signIn.ts';
import { orgPath } from '../shared/urls.ts';
import { emailKey, insertUser } from '../shared/users.ts';
import {
  authorizationUrl,
  discover,
  exchange,
  isAccessDenied,
  newChecks,
  reasonOf,
  type Identity,
} from './oidc.ts';

/** A sign-in must come back from the provider within this time. */
export const SSO_STATE_TTL_MS = 10 * 60_000;
/** Starts per client address in the window: each writes a row and asks the provider. */
export const SSO_STARTS_PER_ADDRESS = 60;
const STARTS_WINDOW_MS = 15 * 60_000;
/** The cookie tying a sign-in to the browser that started it (against login CSRF). */
export const SSO_BROWSER_COOKIE = 'cb_sso';

type OwnerCtx = CallContext<UserActor>;

interface SettingsRow {
  enabled: number;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  default_role: SsoRole;
  allowed_domains: string;
  require_sso: number;
}

const present = (row: SettingsRow | undefined) => ({
  enabled: row?.enabled === 1,
  issuer: row?.issuer ?? '',
  clientId: row?.client_id ?? '',
  clientSecretSet: Boolean(row?.client_secret),
  defaultRole: row?.default_role ?? 'viewer',
  allowedDomains: row?.allowed_domains ? row.allowed_domains.split(',') : [],
  requireSso: row?.require_sso === 1,
});

const settingsColumns = [
  'enabled',
  'issuer',
  'client_id',
  'client_secret',
  'default_role',
  'allowed_domains',
  'require_sso',
] as const;

function findSettings(db: Db, orgId: number): Promise<SettingsRow | undefined> {
  return db.selectFrom('sso_settings').select(settingsColumns).where('org_id', '=', orgId).executeTakeFirst();
}

export const redirectUri = (config: { appUrl: string }) => `${config.appUrl}${SSO_CALLBACK_PATH}`;

export async function getSettings(ctx: OwnerCtx) {
  return {
    settings: present(await findSettings(ctx.db, ctx.actor.orgId)),
    redirectURI: redirectUri(ctx.config),
  };
}

export async function setSettings(
  ctx: OwnerCtx,
  input: {
    enabled: boolean;
    issuer: string;
    clientId: string;
    clientSecret?: string | undefined;
    defaultRole: SsoRole;
    allowedDomains: string[];
    requireSso: boolean;
  },
) {
  const { db, actor, now, config } = ctx;
  if (new URL(input.issuer).protocol !== 'https:') {
    const plainAllowed = config.ssoAllowInsecure && new URL(input.issuer).protocol === 'http:';
    if (!plainAllowed) throw badRequest(ssoMessages.issuerNotHttps, 'issuer');
  }
  if (input.requireSso && !input.enabled) throw badRequest(ssoMessages.requireNeedsEnabled, 'requireSso');
  const stored = await findSettings(db, actor.orgId);
  const secret = input.clientSecret ? input.clientSecret : (stored?.client_secret ?? null);
  if (input.enabled && !secret) throw badRequest(ssoMessages.clientSecretRequired, 'clientSecret');
  const values = {
    enabled: input.enabled ? 1 : 0,
    issuer: input.issuer,
    client_id: input.clientId,
    client_secret: secret,
    default_role: input.defaultRole,
    allowed_domains: [...new Set(input.allowedDomains)].join(','),
    require_sso: input.requireSso ? 1 : 0,
    updated_at: now,
  };
  await db
    .insertInto('sso_settings')
    .values({ org_id: actor.orgId, created_at: now, ...values })
    .onConflict((oc) => oc.column('org_id').doUpdateSet(values))
    .execute();
  return { settings: present(await findSettings(db, actor.orgId)) };
}

async function findOrgSettings(db: Db, orgName: string) {
  return db
    .selectFrom('organizations')
    .innerJoin('sso_settings', 'sso_settings.org_id', 'organizations.id')
    .select(['organizations.id as orgId', 'organizations.name as orgName', ...settingsColumns])
    .where('organizations.name_key', '=', nameKey(orgName))
    .executeTakeFirst();
}

/** Public: only whether the organisation's sign-in page offers SSO (an unknown name: no). */
export async function loginOptions(ctx: CallContext, orgName: string) {
  const row = await findOrgSettings(ctx.db, orgName);
  return { enabled: row?.enabled === 1 };
}

const providerOf = (row: SettingsRow) => ({
  issuer: row.issuer,
  clientId: row.client_id,
  clientSecret: row.client_secret ?? '',
});

export async function start(ctx: CallContext, orgName: string) {
  const { db, dialect, now, config, request, reply } = ctx;
  const bucket = `sso-start:${request.ip}`;
  if ((await takeEvent(db, dialect, bucket, now - STARTS_WINDOW_MS, now, SSO_STARTS_PER_ADDRESS)) === null)
    throw tooManyRequests(ssoMessages.tooManyStarts);
  const row = await findOrgSettings(db, orgName);
  if (!row || row.enabled !== 1) throw badRequest(ssoMessages.notEnabled);
  let url: URL;
  const checks = newChecks();
  try {
    const provider = await discover(providerOf(row), { allowInsecure: config.ssoAllowInsecure, now });
    url = await authorizationUrl(provider, redirectUri(config), checks);
  } catch (error) {
    ctx.log.warn({ orgId: row.orgId, reason: reasonOf(error) }, 'sso: provider discovery failed');
    throw new AppError('BAD_GATEWAY', ssoMessages.providerUnreachable);
  }
  const browser = randomToken();
  await db
    .insertInto('sso_states')
    .values({
      org_id: row.orgId,
      state_hash: hashToken(checks.state),
      browser_hash: hashToken(browser),
      nonce: checks.nonce,
      code_verifier: checks.codeVerifier,
      created_at: now,
      expires_at: now + SSO_STATE_TTL_MS,
      used_at: null,
    })
    .execute();
  reply.setCookie(SSO_BROWSER_COOKIE, browser, {
    path: SSO_CALLBACK_PATH,
    httpOnly: true,
    // Lax: sent on the provider's top-level redirect back to the callback.
    sameSite: 'lax',
    secure: secureCookies(config, request),
    maxAge: SSO_STATE_TTL_MS / 1000,
  });
  return { redirectURL: url.href };
}

const failure = (code: SsoFailure, orgName?: string) =>
  `${orgName ? orgPath(orgName, 'login') : '/login'}?sso=${code}`;

class Refusal extends Error {
  constructor(readonly code: SsoFailure) {
    super(code);
  }
}

/**
 * GET /api/sso/callback: answers where the browser goes: the organisation's sign-in page, which either
 * finishes (`sso=signed-in`, then the organisation's home) or shows why not (`sso=<failure>`).
 */
export async function complete(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  now: number,
): Promise<string> {
  const { db, config } = services;
  const query = request.query as Record<string, unknown>;
  const state = typeof query.state === 'string' && query.state.length <= 200 ? query.state : null;
  if (!state) return failure('failed');
  const row = await db
    .selectFrom('sso_states')
    .innerJoin('organizations', 'organizations.id', 'sso_states.org_id')
    .select([
      'sso_states.id',
      'sso_states.org_id as orgId',
      'sso_states.browser_hash',
      'sso_states.nonce',
      'sso_states.code_verifier',
      'organizations.name as orgName',
    ])
    .where('sso_states.state_hash', '=', hashToken(state))
    .executeTakeFirst();
  if (!row) return failure('expired');
  // Used once: of two callbacks with the same state (a replay), only one gets the row.
  const used = await db
    .updateTable('sso_states')
    .set({ used_at: now })
    .where('org_id', '=', row.orgId)
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return failure('expired', row.orgName);
  const browser = request.cookies[SSO_BROWSER_COOKIE];
  if (!browser || hashToken(browser) !== row.browser_hash) {
    request.log.warn({ orgId: row.orgId }, 'sso: callback from another browser than the one that started');
    return failure('failed', row.orgName);
  }
  const settings = await findSettings(db, row.orgId);
  if (!settings || settings.enabled !== 1) return failure('disabled', row.orgName);

  let identity: Identity;
  try {
    const provider = await discover(providerOf(settings), { allowInsecure: config.ssoAllowInsecure, now });
    // The registered redirect URI (APP_URL's, whatever host the request came through) with the answer.
    const currentUrl = new URL(redirectUri(config));
    currentUrl.search = new URL(request.url, 'http://callback').search;
    identity = await exchange(provider, currentUrl, {
      state,
      nonce: row.nonce,
      codeVerifier: row.code_verifier,
    });
  } catch (error) {
    if (isAccessDenied(error)) return failure('cancelled', row.orgName);
    // The provider's own words stay in the log, never on the page.
    request.log.warn({ orgId: row.orgId, reason: reasonOf(error) }, 'sso: sign-in refused');
    return failure('failed', row.orgName);
  }
  if (!identity.email || !identity.emailVerified) return failure('unverified', row.orgName);

  try {
    const redirect = await db
      .transaction()
      .execute((trx) =>
        signInMember(
          { db: trx, config, request, reply },
          { orgId: row.orgId, orgName: row.orgName },
          settings,
          identity.email!,
          now,
        ),
      );
    request.log.info({ orgId: row.orgId }, 'sso: signed in');
    const next = `${orgPath(row.orgName, 'login')}?sso=signed-in`;
    return redirect ? `${next}&redirect=${encodeURIComponent(redirect)}` : next;
  } catch (error) {
    if (error instanceof Refusal) return failure(error.code, row.orgName);
    throw error;
  }
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

async function signInMember(
  ctx: { db: Db; config: Services['config']; request: FastifyRequest; reply: FastifyReply },
  org: { orgId: number; orgName: string },
  settings: SettingsRow,
  email: string,
  now: number,
): Promise<string | null> {
  const { db } = ctx;
  const key = emailKey(email);
  const live = await db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.org_id')
    .select([
      'users.id',
      'users.org_id as orgId',
      'users.role',
      'users.email_verified',
      'organizations.subscription_status',
    ])
    .where('users.email_key', '=', key)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (live) {
    if (live.orgId !== org.orgId) throw new Refusal('elsewhere');
    // The provider verified the address: an invited member who never set a password is verified too.
    if (live.email_verified !== 1)
      await db
        .updateTable('users')
        .set({ email_verified: 1, updated_at: now })
        .where('org_id', '=', org.orgId)
        .where('id', '=', live.id)
        .execute();
    await clearEvents(db, `login:${key}`);
    return signInUser(ctx, live, now);
  }
  // A member an administrator deleted is not added back by signing in.
  const removed = await db
    .selectFrom('users')
    .select('id')
    .where('org_id', '=', org.orgId)
    .where('email_key', '=', key)
    .where('deleted_at', 'is not', null)
    .executeTakeFirst();
  if (removed) throw new Refusal('removed');
  const domains = settings.allowed_domains ? settings.allowed_domains.split(',') : [];
  if (domains.length > 0 && !domains.includes(domainOf(email))) throw new Refusal('domain');
  const organization = await db
    .selectFrom('organizations')
    .select('subscription_status')
    .where('id', '=', org.orgId)
    .executeTakeFirstOrThrow();
  let id: number;
  try {
    id = await insertUser(
      db,
      { orgId: org.orgId, email, passwordHash: null, role: settings.default_role, verified: true },
      now,
    );
  } catch (error) {
    // The same address signed up or was added at the same moment: this attempt fails, the next finds it.
    if (isUniqueViolation(error)) throw new Refusal('failed');
    throw error;
  }
  return signInUser(
    ctx,
    {
      id,
      orgId: org.orgId,
      role: settings.default_role,
      subscription_status: organization.subscription_status,
    },
    now,
  );
}
