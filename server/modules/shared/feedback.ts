/**
 * Feedback on an evaluation, or on a board from the board view (docs/product-decisions.md). Like the evaluation
 * services, these take the database, the Caller and the request's time, for the anonymous calls' reuse.
 */
import type { Feedback } from '../../../common/api/entities.ts';
import { nameKey } from '../../../common/validation.ts';
import type { Db } from '../../db/index.ts';
import { enqueueEvents } from './webhookEvents.ts';
import { forbidden, notFound } from '../../errors.ts';
import { findLiveBoard } from './boards.ts';
import { isOwn, mayChange, type Caller } from './caller.ts';
import { searchConditions, type SearchFilter } from './search.ts';
import { findCompletedEvaluation, messages as evaluationMessages } from './evaluations.ts';

export const messages = {
  feedbackNotFound: 'The feedback was not found.',
  notYourFeedback: 'You can only change your own feedback.',
  boardNotFound: evaluationMessages.boardNotFound,
  evaluationNotFound: evaluationMessages.evaluationNotFound,
};

export const feedbackColumns = [
  'feedback.id',
  'feedback.evaluation_id',
  'feedback.board_id',
  'feedback.card_id',
  'feedback.user_id',
  'feedback.anon_key_id',
  'feedback.user_name',
  'feedback.board_name',
  'feedback.card_name',
  'feedback.content',
  'feedback.created_at',
] as const;

export interface FeedbackRow {
  id: number;
  evaluation_id: number | null;
  board_id: number;
  card_id: number | null;
  user_id: number | null;
  anon_key_id: number | null;
  user_name: string;
  board_name: string;
  card_name: string | null;
  content: string;
  created_at: number;
}

export function presentFeedback(caller: Caller, row: FeedbackRow): Feedback {
  return {
    id: row.id,
    evalID: row.evaluation_id,
    cardID: row.card_id,
    cardName: row.card_name,
    boardID: row.board_id,
    boardName: row.board_name,
    userName: row.user_name,
    createdTime: new Date(row.created_at).toISOString(),
    content: row.content,
    isUsers: isOwn(caller, row, row.created_at),
  };
}

/**
 * add-feedback: on a completed evaluation of the board (evaluationId set), or on the board itself. The
 * names are snapshots, like an evaluation's: the evaluation's own for feedback on one.
 */
export async function addFeedback(
  db: Db,
  caller: Caller,
  input: { evaluationId: number | null; boardId: number; content: string },
  now: number,
): Promise<{ id: number }> {
  let target: { boardId: number; boardName: string; cardId: number | null; cardName: string | null };
  if (input.evaluationId !== null) {
    const evaluation = await findCompletedEvaluation(db, caller, input.evaluationId);
    if (evaluation.board_id !== input.boardId) throw notFound(messages.evaluationNotFound);
    target = {
      boardId: evaluation.board_id,
      boardName: evaluation.board_name,
      cardId: evaluation.card_id,
      cardName: evaluation.card_name,
    };
  } else {
    const board = await findLiveBoard(db, {
      orgId: caller.orgId,
      boardId: input.boardId,
      onlyBoardId: caller.boardId,
    });
    target = { boardId: board.id, boardName: board.name, cardId: null, cardName: null };
  }
  const { who } = caller;
  const row = await db
    .insertInto('feedback')
    .values({
      org_id: caller.orgId,
      evaluation_id: input.evaluationId,
      board_id: target.boardId,
      card_id: target.cardId,
      user_id: who.userId,
      anon_key_id: who.anonKeyId,
      user_name: who.userName,
      board_name: target.boardName,
      card_name: target.cardName,
      user_name_key: nameKey(who.userName),
      board_name_key: nameKey(target.boardName),
      card_name_key: target.cardName === null ? '' : nameKey(target.cardName),
      content: input.content,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (input.evaluationId !== null) {
    await db
      .updateTable('evaluations')
      .set({ has_feedback: 1 })
      .where('org_id', '=', caller.orgId)
      .where('id', '=', input.evaluationId)
      .execute();
  }
  const feedback = {
    id: row.id,
    evaluationID: input.evaluationId,
    boardID: target.boardId,
    boardName: target.boardName,
    cardID: target.cardId,
    cardName: target.cardName,
    userName: who.userName,
    content: input.content,
    createdTime: new Date(now).toISOString(),
  };
  await enqueueEvents(db, caller.orgId, ['feedback.added'], { feedback }, now);
  return { id: row.id };
}

/**
 * Feedback the caller may change: their own, or any of the organisation's for an administrator (the role
 * decides; a request's isAdmin is only the web app's hint). When the request names the evaluation (or
 * board) the feedback must be on it: those fields narrow, never widen.
 */
async function findChangeableFeedback(
  db: Db,
  caller: Caller,
  input: { feedbackId: number; evaluationId?: number | null; boardId?: number },
): Promise<FeedbackRow> {
  const row = await db
    .selectFrom('feedback')
    .select(feedbackColumns)
    .where('feedback.org_id', '=', caller.orgId)
    .where('feedback.id', '=', input.feedbackId)
    .$if(caller.boardId !== undefined, (qb) => qb.where('feedback.board_id', '=', caller.boardId!))
    .executeTakeFirst();
  if (
    !row ||
    (input.evaluationId != null && row.evaluation_id !== input.evaluationId) ||
    (input.boardId !== undefined && row.board_id !== input.boardId)
  ) {
    throw notFound(messages.feedbackNotFound);
  }
  if (!mayChange(caller, row, row.created_at)) throw forbidden(messages.notYourFeedback);
  return row;
}

export async function editFeedback(
  db: Db,
  caller: Caller,
  input: { feedbackId: number; evaluationId?: number | null; content: string },
  now: number,
): Promise<Feedback> {
  const row = await findChangeableFeedback(db, caller, input);
  await db
    .updateTable('feedback')
    .set({ content: input.content, updated_at: now })
    .where('org_id', '=', caller.orgId)
    .where('id', '=', row.id)
    .execute();
  return presentFeedback(caller, { ...row, content: input.content });
}

export async function deleteFeedback(
  db: Db,
  caller: Caller,
  input: { feedbackId: number; evaluationId?: number | null; boardId?: number },
): Promise<{ id: number }> {
  const row = await findChangeableFeedback(db, caller, input);
  await db.deleteFrom('feedback').where('org_id', '=', caller.orgId).where('id', '=', row.id).execute();
  if (row.evaluation_id !== null) {
    // The evaluation's flag follows its feedback: cleared with the last one.
    const left = await db
      .selectFrom('feedback')
      .select('id')
      .where('org_id', '=', caller.orgId)
      .where('evaluation_id', '=', row.evaluation_id)
      .limit(1)
      .executeTakeFirst();
    if (!left) {
      await db
        .updateTable('evaluations')
        .set({ has_feedback: 0 })
        .where('org_id', '=', caller.orgId)
        .where('id', '=', row.evaluation_id)
        .execute();
    }
  }
  return { id: row.id };
}

/** get-feedback-by-evaluation-id: a completed evaluation's feedback, oldest first. */
export async function feedbackForEvaluation(
  db: Db,
  caller: Caller,
  evaluationId: number,
): Promise<Feedback[]> {
  const evaluation = await findCompletedEvaluation(db, caller, evaluationId);
  const rows = await db
    .selectFrom('feedback')
    .select(feedbackColumns)
    .where('feedback.org_id', '=', caller.orgId)
    .where('feedback.evaluation_id', '=', evaluation.id)
    .orderBy('feedback.created_at')
    .orderBy('feedback.id')
    .execute();
  return rows.map((row) => presentFeedback(caller, row));
}

/** One keyset page of matching feedback, newest first (search-feedback and the feedback export's batches). */
export function feedbackPage(
  db: Db,
  orgId: number,
  filter: SearchFilter,
  limit: number,
): Promise<FeedbackRow[]> {
  let query = db.selectFrom('feedback').select(feedbackColumns).where('feedback.org_id', '=', orgId);
  for (const condition of searchConditions('feedback', 'created_at', filter)) query = query.where(condition);
  return query.orderBy('feedback.created_at', 'desc').orderBy('feedback.id', 'desc').limit(limit).execute();
}

export async function searchFeedback(db: Db, caller: Caller, filter: SearchFilter): Promise<Feedback[]> {
  const rows = await feedbackPage(db, caller.orgId, filter, filter.quantity);
  return rows.map((row) => presentFeedback(caller, row));
}
