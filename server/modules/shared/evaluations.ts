/**
 * Evaluations: start one, complete it with its results, read, delete, list a board's recent ones and search
 * (docs/product-decisions.md, Evaluations, results, feedback). Every function takes the database (the request's
 * transaction for changes), the Caller and the request's time, so the anonymous calls reuse them as they are.
 */
import { TZDate } from '@date-fns/tz';
import { addDays, format, startOfDay } from 'date-fns';
import type { Selectable } from 'kysely';
import type { BoardDayTotals, Evaluation, Result } from '../../../common/api/entities.ts';
import type { ResultInput } from '../../../common/api/inputs.ts';
import {
  BOARD_SQUARES_PER_DAY,
  EVALUATION_WINDOW_DAYS,
  LAST_EVALUATIONS_COUNT,
} from '../../../common/constants.ts';
import { DEVICE_TIME_MAX_AGE_MS, DEVICE_TIME_SKEW_MS } from '../../../common/constants.ts';
import { missingEvidence } from '../../../common/evidence.ts';
import { missingSignOff } from '../../../common/signOff.ts';
import { evaluationPasses } from '../../../common/results.ts';
import { nameKey } from '../../../common/validation.ts';
import type { Db } from '../../db/index.ts';
import { JsonText } from '../../lib/jsonText.ts';
import { boardAnswersOf, KeptAnswer } from './boardAnswers.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { claimTogether } from '../../db/together.ts';
import type { ResultsTable } from '../../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { boardMessages, findLiveBoard } from './boards.ts';
import { countEvaluation, evaluationCountWrites } from './evaluationCounts.ts';
import { pendItemResultsWrite, uncountItemResults } from './itemCounts.ts';
import { enqueueEvents, liveEndpoints } from './webhookEvents.ts';
import { isOwn, mayChange, type Caller } from './caller.ts';
import { liveCardsOfBoard } from './cards.ts';
import { deletePhotoRows, photoCounts, photosOf, type PhotoSummary } from './photos.ts';
import { deleteSignatureRows, hasSignature } from './signatures.ts';
import { searchConditions, type SearchFilter } from './search.ts';

export const messages = {
  ...boardMessages,
  cardNotOnBoard: 'The card was not found on this board.',
  evaluationNotFound: 'The evaluation was not found.',
  alreadyComplete: 'This evaluation is already complete.',
  notYourEvaluation: 'You can only change your own evaluations.',
  itemNotOnCard: 'The results name an item that is not on this card.',
  itemAnsweredTwice: 'The results answer an item more than once.',
  passFailUnanswered: 'Every Pass/Fail item must be answered.',
  naNotAllowed: 'This item cannot be answered N/A.',
  unknownTimeZone: 'Unknown time zone.',
};

const DAY = 24 * 60 * 60_000;

export const evaluationColumns = [
  'evaluations.id',
  'evaluations.board_id',
  'evaluations.card_id',
  'evaluations.user_id',
  'evaluations.anon_key_id',
  'evaluations.user_name',
  'evaluations.board_name',
  'evaluations.card_name',
  'evaluations.pass',
  'evaluations.has_feedback',
  'evaluations.started_at',
  'evaluations.completed_at',
  'evaluations.completed_on_device',
] as const;

/**
 * What the board view reads of a row (its board is known; a member's own rows are told by user_id). Every one
 * is carried by the index evaluations_board_window (migration 0030, decision 0769), so the window is read from
 * the index alone: a column added here must be added there (0030_board_window_index.test.ts fails otherwise).
 */
const boardViewColumns = [
  'evaluations.id',
  'evaluations.card_id',
  'evaluations.user_id',
  'evaluations.user_name',
  'evaluations.board_name',
  'evaluations.card_name',
  'evaluations.pass',
  'evaluations.has_feedback',
  'evaluations.completed_at',
  'evaluations.completed_on_device',
] as const;

export interface EvaluationRow {
  id: number;
  board_id: number;
  card_id: number;
  user_id: number | null;
  anon_key_id: number | null;
  user_name: string;
  board_name: string;
  card_name: string;
  pass: 0 | 1 | null;
  has_feedback: 0 | 1;
  started_at: number;
  completed_at: number | null;
  completed_on_device: 0 | 1;
}

export const resultColumns = [
  'results.evaluation_id',
  'results.item_id',
  'results.item_type',
  'results.position',
  'results.content',
  'results.pass',
  'results.text_result',
  'results.numeric_result',
  'results.na',
  'results.note',
] as const;

export type ResultRow = Pick<
  Selectable<ResultsTable>,
  | 'evaluation_id'
  | 'item_id'
  | 'item_type'
  | 'position'
  | 'content'
  | 'pass'
  | 'text_result'
  | 'numeric_result'
  | 'na'
> & { note: string | null };

export function presentResult(row: ResultRow, photos: PhotoSummary[] = []): Result {
  return {
    item_id: row.item_id,
    type: row.item_type,
    order: row.position,
    pass: row.pass === null ? null : row.pass === 1,
    text_result: row.text_result,
    numeric_result: row.numeric_result,
    na: row.na === 1,
    content: row.content,
    note: row.note,
    photos,
  };
}

/** Stored results with the photos on their items (issue 12). */
export type ResultWithPhotos = ResultRow & { photos: PhotoSummary[] };

/** A completed evaluation on the wire. */
export function presentEvaluation(
  caller: Caller,
  row: EvaluationRow,
  results?: ResultWithPhotos[],
): Evaluation {
  return {
    ID: row.id,
    boardID: row.board_id,
    boardName: row.board_name,
    cardID: row.card_id,
    cardName: row.card_name,
    userName: row.user_name,
    pass: row.pass === 1,
    hasFeedback: row.has_feedback === 1,
    completedTime: new Date(row.completed_at!).toISOString(),
    isUsers: isOwn(caller, row, row.started_at),
    ...(row.completed_on_device === 1 ? { completedOnDevice: true as const } : {}),
    ...(results ? { results: results.map((result) => presentResult(result, result.photos)) } : {}),
  };
}

/** The evaluation as the caller may see it, complete or not; another organisation's (or board's) is absent. */
async function findEvaluation(db: Db, caller: Caller, evalId: number): Promise<EvaluationRow> {
  const row = await db
    .selectFrom('evaluations')
    .select(evaluationColumns)
    .where('evaluations.org_id', '=', caller.orgId)
    .where('evaluations.id', '=', evalId)
    .$if(caller.boardId !== undefined, (qb) => qb.where('evaluations.board_id', '=', caller.boardId!))
    .executeTakeFirst();
  if (!row) throw notFound(messages.evaluationNotFound);
  return row;
}

/**
 * An evaluation the caller may change: their own (an administrator: any). Another member's evaluation that
 * is not complete is hidden like everything unfinished, so it is "not found" rather than "not yours".
 */
async function findChangeableEvaluation(db: Db, caller: Caller, evalId: number): Promise<EvaluationRow> {
  return changeable(caller, await findEvaluation(db, caller, evalId));
}

function changeable<Row extends EvaluationRow>(caller: Caller, row: Row): Row {
  if (!mayChange(caller, row, row.started_at)) {
    if (row.completed_at === null) throw notFound(messages.evaluationNotFound);
    throw forbidden(messages.notYourEvaluation);
  }
  return row;
}

/** A completed evaluation: what every reader sees (unfinished ones are hidden everywhere). */
export async function findCompletedEvaluation(
  db: Db,
  caller: Caller,
  evalId: number,
): Promise<EvaluationRow> {
  const row = await findEvaluation(db, caller, evalId);
  if (row.completed_at === null) throw notFound(messages.evaluationNotFound);
  return row;
}

/** The board, if the caller reaches it: an anonymous key reaches its own board only. */
function findCallersBoard(db: Db, caller: Caller, boardId: number) {
  return findLiveBoard(db, { orgId: caller.orgId, boardId, onlyBoardId: caller.boardId });
}

/** add-evaluation: starts an evaluation of a card that is on the board, with snapshots of both names. */
export async function startEvaluation(
  db: Db,
  caller: Caller,
  input: { boardId: number; cardId: number },
  now: number,
): Promise<{ id: number }> {
  const board = await findCallersBoard(db, caller, input.boardId);
  const [card] = await liveCardsOfBoard(db, { orgId: caller.orgId, boardId: board.id, cardId: input.cardId });
  if (!card) throw notFound(messages.cardNotOnBoard);
  const { who } = caller;
  const row = await db
    .insertInto('evaluations')
    .values({
      org_id: caller.orgId,
      board_id: board.id,
      card_id: card.id,
      user_id: who.userId,
      anon_key_id: who.anonKeyId,
      user_name: who.userName,
      board_name: board.name,
      card_name: card.name,
      user_name_key: nameKey(who.userName),
      board_name_key: nameKey(board.name),
      card_name_key: nameKey(card.name),
      pass: null,
      has_feedback: 0,
      started_at: now,
      completed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

interface CardItemRow {
  id: number;
  type: ResultRow['item_type'];
  content: string;
  na: 0 | 1;
  position: number;
  photo_on_fail: 0 | 1;
  note_on_fail: 0 | 1;
}

/**
 * The results to store: one per live item of the card, in card order, each with a snapshot of its item
 * (instructions included, so an evaluation shows the card as it was). Refuses answers naming other items,
 * answering one twice, N/A where the item does not allow it, and any Pass/Fail item left unanswered.
 */
export function resultsToStore(
  items: CardItemRow[],
  answers: ResultInput[],
  photos: ReadonlyMap<number, number> = new Map(),
): { rows: Omit<ResultRow, 'evaluation_id'>[]; pass: boolean } {
  const byItem = new Map(items.map((item) => [item.id, item]));
  const answered = new Map<number, ResultInput>();
  for (const answer of answers) {
    const item = byItem.get(answer.item_id);
    if (!item) throw badRequest(messages.itemNotOnCard, 'results');
    if (answered.has(answer.item_id)) throw badRequest(messages.itemAnsweredTwice, 'results');
    if (answer.na === true && item.na !== 1) throw badRequest(messages.naNotAllowed, 'results');
    answered.set(answer.item_id, answer);
  }
  const rows = items.map((item) => {
    const answer = answered.get(item.id);
    const na = answer?.na === true;
    let pass: 0 | 1 | null = null;
    if (item.type === 'pass_fail' && !na) {
      if (typeof answer?.pass !== 'boolean') throw badRequest(messages.passFailUnanswered, 'results');
      pass = answer.pass ? 1 : 0;
    }
    const note = answer?.note?.trim() ? answer.note.trim() : null;
    // A failed item whose card asks for evidence (issue 12): refused with the item named.
    const missing = missingEvidence(
      {
        type: item.type,
        content: item.content,
        photoOnFail: item.photo_on_fail === 1,
        noteOnFail: item.note_on_fail === 1,
      },
      { failed: pass === 0, note, photos: photos.get(item.id) ?? 0 },
    );
    if (missing) throw badRequest(missing, 'results');
    return {
      item_id: item.id,
      item_type: item.type,
      position: item.position,
      content: item.content,
      pass,
      text_result: answer?.text_result ? answer.text_result : null,
      numeric_result: answer?.numeric_result ?? null,
      na: na ? (1 as const) : (0 as const),
      note,
    };
  });
  const pass = evaluationPasses(
    rows.map((row) => ({
      type: row.item_type,
      choice: row.na ? 'na' : row.pass === null ? null : row.pass === 1 ? 'pass' : 'fail',
    })),
  );
  return { rows, pass };
}

/**
 * When an evaluation counts as completed (docs/decisions/0730): the server's time, or the device's time of an
 * evaluation captured offline when it is plausible (not in the future, not older than 7 days).
 */
export function completionTime(now: number, deviceTime: number | undefined) {
  const plausible =
    deviceTime !== undefined &&
    Number.isFinite(deviceTime) &&
    deviceTime <= now + DEVICE_TIME_SKEW_MS &&
    deviceTime >= now - DEVICE_TIME_MAX_AGE_MS;
  return {
    completedAt: plausible ? Math.min(deviceTime, now) : now,
    onDevice: plausible,
    deviceTime: deviceTime !== undefined && Number.isFinite(deviceTime) ? deviceTime : null,
  };
}

/**
 * What completing an evaluation needs, in one read (each read a round trip on PostgreSQL): the evaluation
 * as the caller may change it, its card's live items in card order, and whether the card requires a
 * sign-off. A card without live items is one row of nulls on its side.
 */
async function evaluationToComplete(
  db: Db,
  caller: Caller,
  evalId: number,
): Promise<{
  evaluation: EvaluationRow;
  items: CardItemRow[];
  signOffRequired: boolean;
  hasWebhooks: boolean;
}> {
  const rows = await db
    .selectFrom('evaluations')
    .leftJoin('cards', (join) =>
      join.onRef('cards.org_id', '=', 'evaluations.org_id').onRef('cards.id', '=', 'evaluations.card_id'),
    )
    .leftJoin('card_items', (join) =>
      join
        .onRef('card_items.org_id', '=', 'evaluations.org_id')
        .onRef('card_items.card_id', '=', 'evaluations.card_id')
        .on('card_items.is_deleted', '=', 0),
    )
    .select(evaluationColumns)
    .select([
      'cards.sign_off_required',
      'card_items.id as item_id',
      'card_items.type as item_type',
      'card_items.content as item_content',
      'card_items.na as item_na',
      'card_items.position as item_position',
      'card_items.photo_on_fail as item_photo_on_fail',
      'card_items.note_on_fail as item_note_on_fail',
    ])
    // Whether any endpoint takes deliveries, asked here: without one, the completion skips the read of them
    // (a round trip on PostgreSQL) that queuing its events would make.
    .select((eb) =>
      eb.exists(liveEndpoints(db, caller.orgId).select('webhook_endpoints.id')).as('has_webhooks'),
    )
    .where('evaluations.org_id', '=', caller.orgId)
    .where('evaluations.id', '=', evalId)
    .$if(caller.boardId !== undefined, (qb) => qb.where('evaluations.board_id', '=', caller.boardId!))
    .orderBy('card_items.position')
    .orderBy('card_items.id')
    .execute();
  const first = rows[0];
  if (!first) throw notFound(messages.evaluationNotFound);
  const evaluation = changeable(caller, {
    id: first.id,
    board_id: first.board_id,
    card_id: first.card_id,
    user_id: first.user_id,
    anon_key_id: first.anon_key_id,
    user_name: first.user_name,
    board_name: first.board_name,
    card_name: first.card_name,
    pass: first.pass,
    has_feedback: first.has_feedback,
    started_at: first.started_at,
    completed_at: first.completed_at,
    completed_on_device: first.completed_on_device,
  });
  const items: CardItemRow[] = [];
  for (const row of rows) {
    if (row.item_id === null) continue;
    items.push({
      id: row.item_id,
      type: row.item_type!,
      content: row.item_content!,
      na: row.item_na!,
      position: row.item_position!,
      photo_on_fail: row.item_photo_on_fail!,
      note_on_fail: row.item_note_on_fail!,
    });
  }
  return {
    evaluation,
    items,
    signOffRequired: first.sign_off_required === 1,
    // PostgreSQL answers a boolean, SQLite 0 or 1.
    hasWebhooks: Boolean(first.has_webhooks),
  };
}

/** add-results: completes the evaluation with its results and computed `pass`, at completionTime(). */
export async function completeEvaluation(
  db: Db,
  caller: Caller,
  input: {
    evalId: number;
    results: ResultInput[];
    signedName?: string | null | undefined;
    deviceCompletedTime?: string | undefined;
  },
  requestTime: number,
): Promise<{ complete: true }> {
  const when = completionTime(
    requestTime,
    input.deviceCompletedTime === undefined ? undefined : Date.parse(input.deviceCompletedTime),
  );
  const now = when.completedAt;
  const { evaluation, items, signOffRequired, hasWebhooks } = await evaluationToComplete(
    db,
    caller,
    input.evalId,
  );
  if (evaluation.completed_at !== null) throw conflict(messages.alreadyComplete);
  // Only whoever started it completes it: an Administrator may delete any evaluation, never finish another
  // member's (issue 10). Open evaluations are hidden from everyone else, so it is answered as not found.
  if (!isOwn(caller, evaluation, evaluation.started_at)) throw notFound(messages.evaluationNotFound);
  // The photos are counted only where a failed item asks for one (issue 12): each skipped read is a round trip.
  const photos = items.some((item) => item.photo_on_fail === 1)
    ? await photoCounts(db, caller.orgId, evaluation.id)
    : undefined;
  const { rows, pass } = resultsToStore(items, input.results, photos);
  // A card requiring sign-off (issue 13): the drawn signature and the typed name, both, or nothing is written.
  const signedName = input.signedName?.trim() ? input.signedName.trim() : null;
  const missing = missingSignOff(signOffRequired, {
    signature: signOffRequired && (await hasSignature(db, caller.orgId, evaluation.id)),
    signedName,
  });
  if (missing) throw badRequest(missing, 'signOff');
  // The claim, with the results, the fold's pending row and the counters: one statement on PostgreSQL
  // (decisions 0755, 0782), the claim run first. Of two completions racing, the second's claim finds the
  // evaluation complete (on PostgreSQL after waiting on its row lock until the first commits) and takes
  // nothing; its transaction then fails, and what it wrote beside the claim goes back with it. An evaluation
  // deleted while the claim waited for it fails the results' reference to it instead: not found.
  const claimed = await claimTogether(
    db,
    db
      .updateTable('evaluations')
      .set({
        completed_at: now,
        pass: pass ? 1 : 0,
        completed_on_device: when.onDevice ? 1 : 0,
        device_completed_at: when.deviceTime,
        signed_name: signedName,
      })
      .where('org_id', '=', caller.orgId)
      .where('id', '=', evaluation.id)
      .where('completed_at', 'is', null)
      .returning('id'),
    [
      ...(rows.length
        ? [
            db
              .insertInto('results')
              .values(rows.map((row) => ({ ...row, org_id: caller.orgId, evaluation_id: evaluation.id }))),
          ]
        : []),
      // Its items' answers are counted by the fold (decision 0751).
      pendItemResultsWrite(db, { id: evaluation.id, orgId: caller.orgId }),
      ...evaluationCountWrites(
        db,
        {
          id: evaluation.id,
          orgId: caller.orgId,
          boardId: evaluation.board_id,
          cardId: evaluation.card_id,
          completedAt: now,
          pass,
        },
        1,
      ),
    ],
  ).catch((error: unknown) => {
    throw isForeignKeyViolation(error) ? notFound(messages.evaluationNotFound) : error;
  });
  if (claimed !== 1) throw conflict(messages.alreadyComplete);
  if (hasWebhooks)
    await enqueueEvents(
      db,
      caller.orgId,
      pass ? ['evaluation.completed'] : ['evaluation.completed', 'evaluation.failed'],
      {
        evaluation: webhookEvaluation(
          {
            ...evaluation,
            completed_at: now,
            pass: pass ? 1 : 0,
            completed_on_device: when.onDevice ? 1 : 0,
          },
          rows,
        ),
      },
      requestTime,
    );
  return { complete: true };
}

/** An evaluation as a webhook tells it (docs/decisions/0585): who, where, when, the outcome and answers. */
function webhookEvaluation(row: EvaluationRow, results: Omit<ResultRow, 'evaluation_id'>[]) {
  return {
    id: row.id,
    boardID: row.board_id,
    boardName: row.board_name,
    cardID: row.card_id,
    cardName: row.card_name,
    userName: row.user_name,
    completedTime: new Date(row.completed_at!).toISOString(),
    pass: row.pass === 1,
    results: results.map((r) => ({
      item_id: r.item_id,
      type: r.item_type,
      pass: r.pass === null ? null : r.pass === 1,
      na: r.na === 1,
      text_result: r.text_result,
      numeric_result: r.numeric_result,
    })),
  };
}

/**
 * delete-evaluation: the caller's own (an administrator: any), with its results, feedback and photos; the
 * photos' files are handed to `removeFiles`, to go once the deletion commits.
 */
export async function deleteEvaluation(
  db: Db,
  caller: Caller,
  evalId: number,
  removeFiles: (keys: string[]) => void,
): Promise<{ evalID: number }> {
  const evaluation = await findChangeableEvaluation(db, caller, evalId);
  // Lock the evaluation first (decision 0627): a completion racing this deletion commits its results before
  // they are deleted and counted below, or finds the evaluation gone (SQLite runs one writer at a time).
  await db
    .updateTable('evaluations')
    .set((eb) => ({ has_feedback: eb.ref('has_feedback') }))
    .where('org_id', '=', caller.orgId)
    .where('id', '=', evaluation.id)
    .execute();
  const files = [
    ...(await deletePhotoRows(db, caller.orgId, evaluation.id)),
    ...(await deleteSignatureRows(db, caller.orgId, evaluation.id)),
  ];
  if (files.length) removeFiles(files);
  await db
    .deleteFrom('report_links')
    .where('org_id', '=', caller.orgId)
    .where('evaluation_id', '=', evaluation.id)
    .execute();
  await db
    .deleteFrom('feedback')
    .where('org_id', '=', caller.orgId)
    .where('evaluation_id', '=', evaluation.id)
    .execute();
  const results = await db
    .deleteFrom('results')
    .where('org_id', '=', caller.orgId)
    .where('evaluation_id', '=', evaluation.id)
    .returning(['item_id', 'item_type', 'pass', 'na'])
    .execute();
  const deleted = await db
    .deleteFrom('evaluations')
    .where('org_id', '=', caller.orgId)
    .where('id', '=', evaluation.id)
    .returning(['completed_at', 'pass'])
    .executeTakeFirst();
  // What was deleted (not what was read before): of two deletions racing, only the one that deleted counts.
  if (deleted && deleted.completed_at !== null) {
    // The results this deletion removed (decision 0627), so a racing copy subtracts nothing; a pending
    // evaluation only leaves the fold's list (decision 0751).
    await uncountItemResults(
      db,
      {
        id: evaluation.id,
        orgId: caller.orgId,
        boardId: evaluation.board_id,
        completedAt: deleted.completed_at,
      },
      results,
    );
    await countEvaluation(
      db,
      {
        id: evaluation.id,
        orgId: caller.orgId,
        boardId: evaluation.board_id,
        cardId: evaluation.card_id,
        completedAt: deleted.completed_at,
        pass: deleted.pass === 1,
      },
      -1,
    );
  }
  return { evalID: evaluation.id };
}

/** The results of several evaluations in one query (never one query per evaluation), in card order. */
export async function resultsOf(
  db: Db,
  orgId: number,
  evaluationIds: number[],
): Promise<Map<number, ResultWithPhotos[]>> {
  const byEvaluation = new Map<number, ResultWithPhotos[]>(evaluationIds.map((id) => [id, []]));
  if (!evaluationIds.length) return byEvaluation;
  const rows = await db
    .selectFrom('results')
    .select(resultColumns)
    .where('results.org_id', '=', orgId)
    .where('results.evaluation_id', 'in', evaluationIds)
    .orderBy('results.evaluation_id')
    .orderBy('results.position')
    .orderBy('results.id')
    .execute();
  const photos = await photosOf(db, orgId, evaluationIds);
  for (const row of rows) {
    const own = photos.get(row.evaluation_id)?.get(row.item_id) ?? [];
    byEvaluation.get(row.evaluation_id)?.push({ ...row, photos: own });
  }
  return byEvaluation;
}

/** get-evaluation: one completed evaluation with its results. */
export async function getEvaluation(db: Db, caller: Caller, evalId: number): Promise<Evaluation> {
  const row = await findCompletedEvaluation(db, caller, evalId);
  const results = await resultsOf(db, caller.orgId, [row.id]);
  return presentEvaluation(caller, row, results.get(row.id) ?? []);
}

/**
 * get-evaluations: the board view's data. The board's evaluations completed since `since` (at most
 * EVALUATION_WINDOW_DAYS back), by everyone, oldest first; plus, for each card now on the board with fewer
 * than LAST_EVALUATIONS_COUNT of them in that window, its latest ones from before it to make up that number,
 * so that "Last 3 Evaluations" shows every card (docs/decisions/0203-board-view-evaluations.md).
 */
/** An IANA zone this server knows, or null (offsets like +05:30 are not zones). */
function knownZone(name: string | undefined): string | null {
  if (name === undefined) return 'UTC';
  if (KNOWN_ZONES.has(name)) return name;
  if (!ZONE_NAME.test(name)) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return null;
  }
  // Making a formatter is what costs; a zone known once stays known (a few hundred names at most).
  KNOWN_ZONES.add(name);
  return name;
}
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;
const KNOWN_ZONES = new Set<string>();

export interface LocalDays {
  /** The days, ascending, each with its date and its first instant. */
  days: { date: string; start: number }[];
  /** The first instant of the day after the last. */
  end: number;
}

/**
 * The local calendar days in the zone from the one holding `from` to the one holding `to`, with their first
 * instants (@date-fns/tz, right across daylight-saving changes). Working them out costs about a millisecond,
 * more than the rest of a quiet board's request, so the last few spans of each zone are kept: a span serves
 * any later call whose `from` and `to` fall in its first and last days (the calendar does not change).
 */
export function localDays(from: number, to: number, zone: string): LocalDays {
  const kept = RECENT_DAYS.get(zone) ?? [];
  const hit = kept.find(
    ({ days, end }) =>
      days[0]!.start <= from &&
      from < (days[1]?.start ?? end) &&
      days[days.length - 1]!.start <= to &&
      to < end,
  );
  if (hit) return hit;
  const days: { date: string; start: number }[] = [];
  let day = startOfDay(new TZDate(from, zone));
  for (; day.getTime() <= to; day = addDays(day, 1)) {
    days.push({ date: format(day, 'yyyy-MM-dd'), start: day.getTime() });
  }
  const span = { days, end: day.getTime() };
  if (days.length) {
    RECENT_DAYS.delete(zone);
    RECENT_DAYS.set(zone, [span, ...kept.slice(0, 3)]);
    if (RECENT_DAYS.size > 100) RECENT_DAYS.delete(RECENT_DAYS.keys().next().value!);
  }
  return span;
}
const RECENT_DAYS = new Map<string, LocalDays[]>();

export interface BoardEvaluations {
  evaluations: Evaluation[];
  moreDays: BoardDayTotals[];
}

/**
 * Of a window's completed rows, newest first (completed_at, then id, descending), what the board draws: per
 * card and local day (`days`: the local days' first instants, ascending; a row belongs to the last day
 * starting at or before it, the first day taking anything earlier) the day's last BOARD_SQUARES_PER_DAY,
 * oldest first, and the totals of each (card, day) with more, in the order their first listed row comes.
 */
export function lastPerDay<
  Row extends { id: number; card_id: number; completed_at: number | null; pass: 0 | 1 | null },
>(
  newestFirst: readonly Row[],
  days: readonly { date: string; start: number }[],
): { listed: Row[]; moreDays: BoardDayTotals[]; perCard: Map<number, number> } {
  const tallies = new Map<number, { cardID: number; day: number; count: number; passes: number }>();
  const listed: Row[] = [];
  const listedKeys: number[] = [];
  const perCard = new Map<number, number>();
  let day = days.length - 1;
  for (const row of newestFirst) {
    while (day > 0 && row.completed_at! < days[day]!.start) day--;
    // One key per (card, day): the card's id times 64 (more than the window's days) plus the day.
    const key = row.card_id * 64 + day;
    let tally = tallies.get(key);
    if (!tally) tallies.set(key, (tally = { cardID: row.card_id, day, count: 0, passes: 0 }));
    tally.count++;
    if (row.pass === 1) tally.passes++;
    if (tally.count <= BOARD_SQUARES_PER_DAY) {
      listed.push(row);
      listedKeys.push(key);
      perCard.set(row.card_id, (perCard.get(row.card_id) ?? 0) + 1);
    }
  }
  listed.reverse();
  listedKeys.reverse();
  const moreDays: BoardDayTotals[] = [];
  const told = new Set<number>();
  for (const key of listedKeys) {
    const tally = tallies.get(key)!;
    if (tally.count > BOARD_SQUARES_PER_DAY && !told.has(key)) {
      told.add(key);
      moreDays.push({
        cardID: tally.cardID,
        date: days[tally.day]!.date,
        pass: tally.passes,
        fail: tally.count - tally.passes,
      });
    }
  }
  return { listed, moreDays, perCard };
}

/**
 * The board view's evaluations (decision 0620): per card and local day in the zone, that day's last
 * BOARD_SQUARES_PER_DAY (with the day's totals when it has more), and each card's last 3, reaching before
 * the window for a card with fewer. So the answer is bounded by cards x days, however busy the board. It comes
 * written as JSON, sent as it is (decision 0775).
 */
export async function boardEvaluations(
  db: Db,
  caller: Caller,
  input: { boardId: number; since: number; timeZone?: string },
  now: number,
): Promise<JsonText<BoardEvaluations>> {
  const zone = knownZone(input.timeZone);
  if (!zone) throw badRequest(messages.unknownTimeZone, 'timeZone');
  // An anonymous key reaches its own board only: refused before anything is read.
  if (caller.boardId !== undefined && caller.boardId !== input.boardId)
    throw notFound(boardMessages.boardNotFound);
  const boardId = input.boardId;
  const since = Math.max(input.since, now - EVALUATION_WINDOW_DAYS * DAY);
  // Through tomorrow, so that a row stamped a little ahead of this clock still gets its own day.
  const { days, end } = localDays(since, Math.max(since, now) + DAY, zone);
  // A member's answer is kept while the board's revision stays (decision 0784): the board's check reads the
  // revision first, and the rows after it, so a write committed in between leaves the answer kept under the
  // old revision, never served again. An anonymous key's own evaluations are told by key and time, and are
  // answered afresh every time.
  // A start older than the window is moved to the window's start, a different instant at every call: such an
  // answer would never be asked for again, and is not kept (the page asks from the 1st of the month, or the
  // 28 days' first Sunday).
  const keep = caller.who.userId !== null && !db.isTransaction && since === input.since;
  if (!keep) return writeBoardEvaluations(db, caller, { boardId, since, days });
  const { board, revision } = await boardWithRevision(db, caller, boardId);
  if (revision === null) return writeBoardEvaluations(db, caller, { boardId, since, days }, board);
  const answers = boardAnswersOf(db);
  const key = `${caller.orgId}:${boardId}:${zone}:${since}:${end}`;
  const kept = answers.get<BoardEvaluations, BoardBasis>(key);
  if (kept?.revision === revision) return kept.answer.for(caller.who.userId!);
  // Written for nobody (every isUsers false), kept, then sent as the caller is sent it. The days' revisions
  // are read after the board's and before the rows: an answer kept at an older revision gives the rows of
  // the days before the first one changed since (decision 0786).
  const nobody: Caller = { ...caller, who: { ...caller.who, userId: NOBODY } };
  const keeping: Keeping = {
    owners: [],
    dayRevisions: await dayRevisionsOf(db, boardId, since),
    before: kept?.basis,
    window: EMPTY_WINDOW,
    spanAt: new Map(),
    spans: new Uint32Array(0),
  };
  const written = await writeBoardEvaluations(db, nobody, { boardId, since, days }, board, keeping);
  const answer = KeptAnswer.of(written, keeping.owners);
  if (!answer) return writeBoardEvaluations(db, caller, { boardId, since, days }, board);
  const { dayRevisions, window, spanAt, spans } = keeping;
  const basis: BoardBasis = { dayRevisions, window, spanAt, spans, bytes: answer.bytes };
  answers.set(key, revision, answer, basis, basisBytes(basis));
  return answer.for(caller.who.userId!);
}

/** A column's name without its table's. */
type Unqualified<T> = T extends `evaluations.${infer C extends keyof EvaluationRow}` ? C : never;

/** A row of the board view as a member's call reads it (an anonymous key's adds two columns). */
type BoardRow = Pick<EvaluationRow, Unqualified<(typeof boardViewColumns)[number]>> &
  Partial<Pick<EvaluationRow, 'anon_key_id' | 'started_at'>>;

/**
 * A row of a kept answer's window, as the next answer takes it (decision 0789): what picking the squares and
 * their owners needs, no names. Its JSON, if the answer listed it, is copied from the answer's bytes.
 */
class KeptRow {
  constructor(
    readonly id: number,
    readonly card_id: number,
    readonly completed_at: number,
    readonly pass: 0 | 1 | null,
    readonly user_id: number | null,
  ) {}
}

/**
 * The window's rows, newest first, in columns (decision 0789): a few arrays for the garbage collector to
 * move, where an object and three strings a row were thousands of survivors of every young collection.
 */
interface KeptWindow {
  ids: Float64Array;
  cardIds: Float64Array;
  completedAt: Float64Array;
  /** 0 or 1; -1 for none. */
  pass: Int8Array;
  /** 0 for none (ids start at 1). */
  userIds: Float64Array;
}

const EMPTY_WINDOW: KeptWindow = {
  ids: new Float64Array(0),
  cardIds: new Float64Array(0),
  completedAt: new Float64Array(0),
  pass: new Int8Array(0),
  userIds: new Float64Array(0),
};

function keptWindow(rows: readonly (BoardRow | KeptRow)[]): KeptWindow {
  const window: KeptWindow = {
    ids: new Float64Array(rows.length),
    cardIds: new Float64Array(rows.length),
    completedAt: new Float64Array(rows.length),
    pass: new Int8Array(rows.length),
    userIds: new Float64Array(rows.length),
  };
  rows.forEach((row, i) => {
    window.ids[i] = row.id;
    window.cardIds[i] = row.card_id;
    window.completedAt[i] = row.completed_at!;
    window.pass[i] = row.pass ?? -1;
    window.userIds[i] = row.user_id ?? 0;
  });
  return window;
}

/** The kept window's rows completed before `instant`, newest first (the window's last ones). */
function keptRowsBefore(window: KeptWindow, instant: number): KeptRow[] {
  let first = window.ids.length;
  while (first > 0 && window.completedAt[first - 1]! < instant) first--;
  const rows: KeptRow[] = [];
  for (let i = first; i < window.ids.length; i++) {
    const pass = window.pass[i]!;
    const userId = window.userIds[i]!;
    rows.push(
      new KeptRow(
        window.ids[i]!,
        window.cardIds[i]!,
        window.completedAt[i]!,
        pass < 0 ? null : (pass as 0 | 1),
        userId === 0 ? null : userId,
      ),
    );
  }
  return rows;
}

/** What a kept answer was written from (decisions 0786, 0789). */
interface BoardBasis {
  /** The board's revision of each UTC day of the window, read before the rows. */
  dayRevisions: Map<number, string>;
  /** The window's rows, newest first. */
  window: KeptWindow;
  /** By evaluation id, each of the answer's rows' place in `spans`: where its JSON starts and ends in `bytes`. */
  spanAt: Map<number, number>;
  spans: Uint32Array;
  /** The answer's bytes (every isUsers false). */
  bytes: Buffer;
}

/** A member's answer written to be kept: what it is kept with, and what it may be written from. */
interface Keeping {
  /** Receives each listed evaluation's user id, in the answer's order. */
  owners: (number | null)[];
  /** The days' revisions, read before the rows. */
  dayRevisions: Map<number, string>;
  /** The answer kept at an older revision: its rows before the first day changed since are taken as they are. */
  before: BoardBasis | undefined;
  /** Receives the window's rows, newest first. */
  window: KeptWindow;
  /** Receive where the answer's rows are in its bytes. */
  spanAt: Map<number, number>;
  spans: Uint32Array;
}

/** Rough bytes of a basis in memory, counted with its answer's within BOARD_ANSWERS_BYTES (its bytes are the answer's). */
const basisBytes = ({ window, spanAt, spans, dayRevisions }: BoardBasis) =>
  window.ids.length * 33 + spanAt.size * 24 + spans.byteLength + dayRevisions.size * 64;

/** The board's revision of each UTC day from the one holding `since` (migration 0032). */
async function dayRevisionsOf(db: Db, boardId: number, since: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('board_day_revisions')
    .select(['day', 'revision'])
    .where('board_id', '=', boardId)
    .where('day', '>=', Math.floor(since / DAY))
    .execute();
  return new Map(rows.map((row) => [Number(row.day), String(row.revision)]));
}

/**
 * The first instant whose rows may be other than those read with the days' revisions `before`: the start of
 * the earliest UTC day whose revision is not the same `now` (Infinity when none changed).
 */
function changedFrom(before: ReadonlyMap<number, string>, now: ReadonlyMap<number, string>): number {
  let first = Infinity;
  for (const [day, revision] of now) if (day < first && before.get(day) !== revision) first = day;
  for (const day of before.keys()) if (day < first && !now.has(day)) first = day;
  return first * DAY;
}

/** A user id no row has (ids start at 1): the caller of an answer written for every member alike. */
const NOBODY = 0;

/** The caller's live board and its revision (null before its first write since migration 0031). */
async function boardWithRevision(db: Db, caller: Caller, boardId: number) {
  const row = await db
    .selectFrom('boards')
    .leftJoin('board_revisions', 'board_revisions.board_id', 'boards.id')
    .select(['boards.id', 'board_revisions.revision'])
    .where('boards.org_id', '=', caller.orgId)
    .where('boards.id', '=', boardId)
    .where('boards.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound(boardMessages.boardNotFound);
  return { board: { id: row.id }, revision: row.revision === null ? null : String(row.revision) };
}

/**
 * The board view's answer read and written (boardEvaluations above). With `board` its check is done already;
 * with `keeping`, the answer is a member's to be kept (Keeping).
 */
async function writeBoardEvaluations(
  db: Db,
  caller: Caller,
  { boardId, since, days }: { boardId: number; since: number; days: LocalDays['days'] },
  checked?: { id: number },
  keeping?: Keeping,
): Promise<JsonText<BoardEvaluations>> {
  // Every row is this board's, and a member's own are told by user_id alone (isOwn): a member's view reads 10
  // of the 13 columns, a fifth less of the statement's time (decision 0626); an anonymous key's reads all.
  const anonymous = caller.who.userId === null;
  const boardRows = () =>
    db
      .selectFrom('evaluations')
      .select(boardViewColumns)
      .$if(anonymous, (qb) => qb.select(['evaluations.anon_key_id', 'evaluations.started_at']))
      .where('evaluations.org_id', '=', caller.orgId)
      .where('evaluations.board_id', '=', boardId);
  // The window's rows newest first, straight from the board's index (decision 0626): ranking and counting
  // them here costs less than the database's window functions, which sort every row's columns three times.
  // The board's check, its window's rows and its cards are three reads that need nothing of each other: on
  // PostgreSQL they go on three pooled connections at once, one round trip's wait instead of three
  // (decision 0757); on SQLite they run one after another as before. Rows read for a board the check then
  // refuses are dropped unseen (and are the caller's organisation's in any case).
  const windowFrom = (from: number): Promise<BoardRow[]> =>
    boardRows()
      .where('evaluations.completed_at', '>=', from)
      .orderBy('evaluations.completed_at', 'desc')
      .orderBy('evaluations.id', 'desc')
      .execute();
  // An answer kept at an older revision (decision 0786): the rows from the first day changed since are read,
  // usually today's; the older ones are those it was written from, the same in the database (their days'
  // revisions are unchanged, and were read before them then and before these rows now).
  const before = keeping?.before;
  const from = before ? changedFrom(before.dayRevisions, keeping!.dayRevisions) : since;
  const [board, window, cards] = await Promise.all([
    checked ?? findCallersBoard(db, caller, boardId),
    before
      ? (from === Infinity ? Promise.resolve([]) : windowFrom(Math.max(from, since))).then(
          (fresh): (BoardRow | KeptRow)[] => [...fresh, ...keptRowsBefore(before.window, from)],
        )
      : windowFrom(since),
    liveCardsOfBoard(db, { orgId: caller.orgId, boardId }),
  ]);
  const { listed, moreDays, perCard } = lastPerDay<BoardRow | KeptRow>(window, days);

  const short = cards.map((c) => c.id).filter((id) => (perCard.get(id) ?? 0) < LAST_EVALUATIONS_COUNT);

  let older: BoardRow[] = [];
  if (short.length) {
    // One statement for all those cards: each part reads its card's newest rows from the index.
    const lastOf = (cardId: number) =>
      db
        .selectFrom(
          boardRows()
            .where('evaluations.card_id', '=', cardId)
            .where('evaluations.completed_at', '<', since)
            .orderBy('evaluations.completed_at', 'desc')
            .orderBy('evaluations.id', 'desc')
            .limit(LAST_EVALUATIONS_COUNT - (perCard.get(cardId) ?? 0))
            .as('last'),
        )
        .selectAll();
    let query = lastOf(short[0]!);
    for (const cardId of short.slice(1)) query = query.unionAll(lastOf(cardId));
    older = await query.execute();
    older.sort((a, b) => a.completed_at! - b.completed_at! || a.id - b.id);
  }
  const rows = older.length ? [...older, ...listed] : listed;
  const present = (row: BoardRow) =>
    presentEvaluation(caller, { board_id: board.id, anon_key_id: null, started_at: 0, ...row });
  if (keeping) {
    const kept = keptAnswerText(rows, present, moreDays, keeping.before);
    if (!kept) {
      // A kept row the answer now lists and did not before (its local day reaches into a UTC day that
      // changed): it has no JSON to copy and no names to write it from, so the window is read afresh.
      keeping.before = undefined;
      return writeBoardEvaluations(db, caller, { boardId, since, days }, board, keeping);
    }
    for (const row of rows) keeping.owners.push(row.user_id);
    keeping.window = keptWindow(window);
    keeping.spanAt = new Map(rows.map((row, i) => [row.id, i]));
    keeping.spans = kept.spans;
    return kept.text;
  }
  // Written as JSON here (decision 0775): the server sends it as it is, without the response check's copy.
  // Without `keeping` every row is one read just now (KeptRows come only from a kept basis).
  return JsonText.of<BoardEvaluations>({ evaluations: (rows as BoardRow[]).map(present), moreDays });
}

const EVALUATIONS_OPEN = '{"evaluations":[';

/**
 * A kept answer's text, as JsonText.of writes it, and where each row's JSON is in it (decision 0786). Written
 * again after a change (`before`), the rows taken from it (KeptRows) are copied from its bytes, runs of them
 * in one copy, and only the rows read just now are presented and written. Undefined when a kept row is
 * listed that its bytes do not hold.
 */
function keptAnswerText(
  rows: readonly (BoardRow | KeptRow)[],
  present: (row: BoardRow) => Evaluation,
  moreDays: BoardDayTotals[],
  before: BoardBasis | undefined,
): { text: JsonText<BoardEvaluations>; spans: Uint32Array } | undefined {
  // Pieces in order: JSON to write, or a run [from, to) of the bytes before.
  const pieces: (string | [number, number])[] = [EVALUATIONS_OPEN];
  const spans = new Uint32Array(rows.length * 2);
  let size = EVALUATIONS_OPEN.length;
  let run: [number, number] | undefined;
  let last = -2;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    // Only a kept row is copied: a row read just now may have changed since its JSON was written (an older
    // evaluation of a short card, before the window, whose day has no revision).
    const old = row instanceof KeptRow ? before?.spanAt.get(row.id) : undefined;
    if (row instanceof KeptRow && old === undefined) return undefined;
    if (old !== undefined) {
      const from = before!.spans[old * 2]!;
      const to = before!.spans[old * 2 + 1]!;
      if (run && old === last + 1) {
        // The next row of a run: its comma and its text follow in the bytes before.
        size += from - run[1];
        run[1] = to;
      } else {
        if (i) pieces.push(',');
        size += i ? 1 : 0;
        pieces.push((run = [from, to]));
      }
      spans[i * 2] = size;
      size += to - from;
      last = old;
    } else {
      const json = `${i ? ',' : ''}${JSON.stringify(present(row as BoardRow))}`;
      pieces.push(json);
      spans[i * 2] = size + (i ? 1 : 0);
      size += Buffer.byteLength(json);
      run = undefined;
      last = -2;
    }
    spans[i * 2 + 1] = size;
  }
  const tail = `],"moreDays":${JSON.stringify(moreDays)}}`;
  const bytes = Buffer.allocUnsafe(size + Buffer.byteLength(tail));
  let to = 0;
  for (const piece of pieces)
    to +=
      typeof piece === 'string' ? bytes.write(piece, to) : before!.bytes.copy(bytes, to, piece[0], piece[1]);
  bytes.write(tail, to);
  return { text: new JsonText<BoardEvaluations>(bytes), spans };
}

/** The search calls' page: completed evaluations matching the filter, newest first, one page. */
export async function searchEvaluations(
  db: Db,
  caller: Caller,
  filter: SearchFilter,
  options: { withResults: boolean },
): Promise<Evaluation[]> {
  const rows = await evaluationPage(db, caller.orgId, filter, filter.quantity);
  if (!options.withResults) return rows.map((row) => presentEvaluation(caller, row));
  const results = await resultsOf(
    db,
    caller.orgId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => presentEvaluation(caller, row, results.get(row.id) ?? []));
}

/** One keyset page of matching completed evaluations (the search calls and the Excel export's batches). */
export function evaluationPage(
  db: Db,
  orgId: number,
  filter: SearchFilter,
  limit: number,
): Promise<EvaluationRow[]> {
  let query = db.selectFrom('evaluations').select(evaluationColumns).where('evaluations.org_id', '=', orgId);
  for (const condition of searchConditions('evaluations', 'completed_at', filter))
    query = query.where(condition);
  return query
    .orderBy('evaluations.completed_at', 'desc')
    .orderBy('evaluations.id', 'desc')
    .limit(limit)
    .execute();
}
