/**
 * The -anon calls (issue 6). The key decides the organisation and the board; the request's orgName,
 * boardID, cardID and evalID can only narrow. A key holder acts as 'Anonymous', and owns an evaluation
 * (and its feedback) only if this key started it, for 12 hours from its start.
 */
import type { Card, Evaluation, Feedback } from '../../../common/api/entities.ts';
import type { ResultInput } from '../../../common/api/inputs.ts';
import { ANONYMOUS_EVALUATION_GRACE_MS, ANONYMOUS_USER_NAME } from '../../../common/constants.ts';
import type { AnonymousActor, CallContext } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import type { PhotoSize } from '../../../common/evidence.ts';
import { liveCardsOfBoard, presentCards } from '../shared/cards.ts';
import { isOwn, type Caller } from '../shared/caller.ts';
import * as evaluations from '../shared/evaluations.ts';
import * as feedback from '../shared/feedback.ts';
import * as photos from '../shared/photos.ts';
import * as signatures from '../shared/signatures.ts';
import { removeObjects } from '../shared/photos.ts';
import { requireUsableKey } from './keys.ts';

type Ctx = CallContext<AnonymousActor>;

export const messages = {
  cardNotFound: 'The card was not found.',
  evaluationNotFound: 'The evaluation was not found.',
};

export function anonymousCaller(ctx: Ctx): Caller {
  return {
    orgId: ctx.actor.orgId,
    who: { userId: null, userName: ANONYMOUS_USER_NAME, anonKeyId: ctx.actor.keyId },
    managesAll: false,
    boardId: ctx.actor.boardId,
    // Owned while started less than 12 hours ago: at 12 hours exactly, it is no longer the key's.
    ownSince: ctx.now - ANONYMOUS_EVALUATION_GRACE_MS + 1,
  };
}

/** One of the board's live cards, with its live items, by name order of the board. */
async function cardsOfBoard(ctx: Ctx, cardId?: number): Promise<Card[]> {
  const { db, actor } = ctx;
  const rows = await liveCardsOfBoard(db, { orgId: actor.orgId, boardId: actor.boardId, cardId });
  // Every card listed here is on this live board.
  return presentCards(
    db,
    actor.orgId,
    rows.map((row) => ({ ...row, hasBoard: true })),
  );
}

export async function boardOfKey(ctx: Ctx) {
  await requireUsableKey(ctx, 'continue');
  const board = await ctx.db
    .selectFrom('boards')
    .select(['id', 'name'])
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', ctx.actor.boardId)
    .executeTakeFirstOrThrow();
  return { board: { id: board.id, name: board.name } };
}

export async function cardsOfKey(ctx: Ctx): Promise<Card[]> {
  await requireUsableKey(ctx, 'start');
  return cardsOfBoard(ctx);
}

export async function cardOfKey(ctx: Ctx, cardId: number): Promise<Card> {
  await requireUsableKey(ctx, 'continue');
  const [card] = await cardsOfBoard(ctx, cardId);
  if (!card) throw notFound(messages.cardNotFound);
  return card;
}

/** An evaluation this key started, within its 12 hours; anything else is not found. */
async function ownEvaluation(ctx: Ctx, evalId: number, cardId?: number) {
  const caller = anonymousCaller(ctx);
  const row = await ctx.db
    .selectFrom('evaluations')
    .select(['id', 'card_id', 'user_id', 'anon_key_id', 'started_at', 'completed_at'])
    .where('org_id', '=', caller.orgId)
    .where('board_id', '=', ctx.actor.boardId)
    .where('id', '=', evalId)
    .executeTakeFirst();
  if (!row || !isOwn(caller, row, row.started_at) || (cardId !== undefined && row.card_id !== cardId)) {
    throw notFound(messages.evaluationNotFound);
  }
  return { caller, row };
}

export async function startEvaluation(ctx: Ctx, cardId: number) {
  await requireUsableKey(ctx, 'start');
  return evaluations.startEvaluation(
    ctx.db,
    anonymousCaller(ctx),
    { boardId: ctx.actor.boardId, cardId },
    ctx.now,
  );
}

export async function completeEvaluation(
  ctx: Ctx,
  evalId: number,
  results: ResultInput[],
  signedName?: string | null,
) {
  const { caller } = await ownEvaluation(ctx, evalId);
  return evaluations.completeEvaluation(ctx.db, caller, { evalId, results, signedName }, ctx.now);
}

export async function deleteEvaluation(ctx: Ctx, evalId: number, cardId: number) {
  const { caller } = await ownEvaluation(ctx, evalId, cardId);
  return evaluations.deleteEvaluation(ctx.db, caller, evalId, (keys) =>
    ctx.afterCommit(() => removeObjects(ctx.storage, keys)),
  );
}

export async function getEvaluation(ctx: Ctx, evalId: number): Promise<Evaluation> {
  const { caller } = await ownEvaluation(ctx, evalId);
  return evaluations.getEvaluation(ctx.db, caller, evalId);
}

export async function addFeedback(ctx: Ctx, evalId: number, content: string) {
  const { caller } = await ownEvaluation(ctx, evalId);
  return feedback.addFeedback(
    ctx.db,
    caller,
    { evaluationId: evalId, boardId: ctx.actor.boardId, content },
    ctx.now,
  );
}

export async function editFeedback(
  ctx: Ctx,
  evalId: number,
  feedbackId: number,
  content: string,
): Promise<Feedback> {
  const { caller } = await ownEvaluation(ctx, evalId);
  return feedback.editFeedback(ctx.db, caller, { feedbackId, evaluationId: evalId, content }, ctx.now);
}

export async function deleteFeedback(ctx: Ctx, evalId: number, feedbackId: number) {
  const { caller } = await ownEvaluation(ctx, evalId);
  return feedback.deleteFeedback(ctx.db, caller, {
    feedbackId,
    evaluationId: evalId,
    boardId: ctx.actor.boardId,
  });
}

export async function feedbackOf(ctx: Ctx, evalId: number): Promise<Feedback[]> {
  const { caller } = await ownEvaluation(ctx, evalId);
  return feedback.feedbackForEvaluation(ctx.db, caller, evalId);
}

/** add-result-photo-anon: a photo on an item of an open evaluation this key started. */
export async function attachPhoto(ctx: Ctx, evalId: number, itemId: number) {
  const { caller } = await ownEvaluation(ctx, evalId);
  if (!ctx.upload) throw new AppError('INTERNAL', 'Unable to add the photo. Please try again.');
  return photos.attachPhoto(ctx, caller, { evalId, itemId }, ctx.upload, ctx.now);
}

/** A signature on an evaluation this key started (issue 13), while the key serves it. */
export async function attachSignature(ctx: Ctx, evalId: number) {
  const { caller } = await ownEvaluation(ctx, evalId);
  if (!ctx.signature) throw new AppError('INTERNAL', 'Unable to add the signature. Please try again.');
  return signatures.attachSignature(ctx, caller, evalId, ctx.signature, ctx.now, (task) =>
    ctx.afterCommit(task),
  );
}

export async function removePhoto(ctx: Ctx, photoId: number) {
  await requireUsableKey(ctx, 'continue');
  return photos.removePhoto(ctx, anonymousCaller(ctx), photoId, (task) => ctx.afterCommit(task));
}

/** A photo of an evaluation this key started, while the key still serves it (12 hours). */
export async function readPhoto(ctx: Ctx, photoId: number, size: PhotoSize) {
  await requireUsableKey(ctx, 'continue');
  return photos.readPhoto(ctx, anonymousCaller(ctx), { photoId, size });
}
