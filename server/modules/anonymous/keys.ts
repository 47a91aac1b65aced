/**
 * Issuing anonymous keys (docs/product-decisions.md). A board that takes anonymous evaluations has one key per rotation
 * period (60 minutes by default). The key is an HMAC of its row's id under the server secret, so it is
 * unguessable and only its hash is stored; the current and the previous period's keys start evaluations.
 */
import { randomUUID } from 'node:crypto';
import { ANONYMOUS_EVALUATION_GRACE_MS } from '../../../common/constants.ts';
import { ANONYMOUS_KEY_INVALID, keyForRow, periodOf } from '../../auth/anonymous.ts';
import { hashToken } from '../../auth/tokens.ts';
import type { AnonymousActor, CallContext, UserActor } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import { qrCodeOf, type QrCode } from './qr.ts';

export const messages = {
  boardNotFound: 'The board was not found.',
  notAnonymous: 'This board does not take anonymous evaluations.',
};

async function liveKeyRow(db: Db, orgId: number, boardId: number, period: number) {
  return db
    .selectFrom('anonymous_keys')
    .select(['id', 'key_hash'])
    .where('org_id', '=', orgId)
    .where('board_id', '=', boardId)
    .where('period', '=', period)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** The anonymous selection page of a board, as the QR code carries it (SPEC §2), from APP_URL. */
export function anonymousUrl(
  appUrl: string,
  orgName: string,
  boardName: string,
  boardId: number,
  key: string,
): string {
  const enc = encodeURIComponent;
  return `${appUrl}/q/${enc(orgName)}/boards/${enc(boardName)}/${boardId}/eval/${enc(key)}`;
}

/** The board's key for the current period, made on first request, with its address. */
export async function currentKey(
  ctx: CallContext<UserActor>,
  boardId: number,
): Promise<{ key: string; url: string; qr: QrCode }> {
  const { db, actor, now, config, secret } = ctx;
  const board = await db
    .selectFrom('boards')
    .select(['id', 'name', 'has_anonymous'])
    .where('org_id', '=', actor.orgId)
    .where('id', '=', boardId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!board) throw notFound(messages.boardNotFound);
  if (board.has_anonymous !== 1) throw notFound(messages.notAnonymous);

  const period = periodOf(now, config.anonKeyRotationMinutes);
  let row = await liveKeyRow(db, actor.orgId, boardId, period);
  if (!row) {
    try {
      // The hash is known only once the row has its id; a unique placeholder holds its place meanwhile.
      const inserted = await db
        .insertInto('anonymous_keys')
        .values({
          org_id: actor.orgId,
          board_id: boardId,
          period,
          key_hash: `pending:${randomUUID()}`,
          created_at: now,
          revoked_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      row = { id: inserted.id, key_hash: '' };
    } catch (error) {
      // Another screen made this period's key first: use it.
      if (!isUniqueViolation(error)) throw error;
      row = await liveKeyRow(db, actor.orgId, boardId, period);
      if (!row) throw error;
    }
  }
  const key = keyForRow(secret, row.id);
  // Also mends a key whose hash was never written, or was written under an earlier secret.
  if (row.key_hash !== hashToken(key)) {
    await db
      .updateTable('anonymous_keys')
      .set({ key_hash: hashToken(key) })
      .where('org_id', '=', actor.orgId)
      .where('id', '=', row.id)
      .execute();
  }
  const url = anonymousUrl(config.appUrl, actor.orgName, board.name, board.id, key);
  return { key, url, qr: qrCodeOf(url) };
}

/** Whether the key may start evaluations now: it is the current period's or the previous one's. */
export function keyStarts(actor: AnonymousActor, now: number, rotationMinutes: number): boolean {
  return actor.keyPeriod >= periodOf(now, rotationMinutes) - 1;
}

/**
 * A key too old to start evaluations still serves the evaluations it started, for 12 hours from their
 * start, so someone can finish what they began.
 */
export async function requireUsableKey(
  ctx: CallContext<AnonymousActor>,
  purpose: 'start' | 'continue',
): Promise<void> {
  const { actor, now, config, db } = ctx;
  if (keyStarts(actor, now, config.anonKeyRotationMinutes)) return;
  if (purpose === 'continue') {
    const recent = await db
      .selectFrom('evaluations')
      .select('id')
      .where('org_id', '=', actor.orgId)
      .where('anon_key_id', '=', actor.keyId)
      .where('started_at', '>', now - ANONYMOUS_EVALUATION_GRACE_MS)
      .executeTakeFirst();
    if (recent) return;
  }
  throw notFound(ANONYMOUS_KEY_INVALID);
}
