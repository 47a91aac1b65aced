/** API tokens of an organisation (docs/decisions/0584): made, listed and revoked by its administrators. */
import type { ApiToken, ApiTokenAccess } from '../../../common/api/index.ts';
import { newApiTokenSecret } from '../../auth/apiTokens.ts';
import type { CallContext, UserActor } from '../../context.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';

export const API_TOKENS_PER_ORGANISATION = 50;

export const messages = {
  expiryPast: 'The expiry date must be in the future.',
  tooMany: `An organisation can have at most ${API_TOKENS_PER_ORGANISATION} API tokens. Revoke one first.`,
  notFound: 'The API token was not found.',
};

type Ctx = CallContext<UserActor>;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function tokensOf(ctx: Ctx) {
  return ctx.db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'api_tokens.id',
      'api_tokens.name',
      'api_tokens.access',
      'api_tokens.prefix',
      'api_tokens.created_at',
      'api_tokens.expires_at',
      'api_tokens.last_used_at',
      'users.email',
    ])
    .where('api_tokens.org_id', '=', ctx.actor.orgId)
    .where('api_tokens.revoked_at', 'is', null);
}

type Row = Awaited<ReturnType<ReturnType<typeof tokensOf>['execute']>>[number];
const present = (row: Row): ApiToken => ({
  id: row.id,
  name: row.name,
  access: row.access,
  prefix: row.prefix,
  createdBy: row.email,
  createdAt: iso(row.created_at)!,
  expiresAt: iso(row.expires_at),
  lastUsedAt: iso(row.last_used_at),
});

/** The organisation's tokens not revoked (expired ones too, marked by their date), newest first. */
export async function listApiTokens(ctx: Ctx): Promise<ApiToken[]> {
  const rows = await tokensOf(ctx).orderBy('api_tokens.id', 'desc').execute();
  return rows.map(present);
}

export async function addApiToken(
  ctx: Ctx,
  input: { name: string; access: ApiTokenAccess; expiresAt: string | null },
): Promise<{ token: ApiToken; secret: string }> {
  const expiresAt = input.expiresAt === null ? null : Date.parse(input.expiresAt);
  if (expiresAt !== null && expiresAt <= ctx.now) throw badRequest(messages.expiryPast, 'expiresAt');
  const live = await ctx.db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', ctx.actor.orgId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(live.n) >= API_TOKENS_PER_ORGANISATION) throw conflict(messages.tooMany);

  const { secret, hash, prefix } = newApiTokenSecret();
  const { id } = await ctx.db
    .insertInto('api_tokens')
    .values({
      org_id: ctx.actor.orgId,
      user_id: ctx.actor.userId,
      name: input.name,
      access: input.access,
      token_hash: hash,
      prefix,
      created_at: ctx.now,
      expires_at: expiresAt,
      revoked_at: null,
      last_used_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await tokensOf(ctx).where('api_tokens.id', '=', id).executeTakeFirstOrThrow();
  return { token: present(row), secret };
}

export async function revokeApiToken(ctx: Ctx, id: number): Promise<{ id: number }> {
  const revoked = await ctx.db
    .updateTable('api_tokens')
    .set({ revoked_at: ctx.now })
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(revoked.numUpdatedRows) === 0) throw notFound(messages.notFound);
  return { id };
}
