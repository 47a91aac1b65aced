/**
 * Photos on results (issue 12, docs/decisions/0640): attached to an item of an open evaluation by whoever
 * started it, removed while it is open, read by whoever may read the evaluation. The signed-in calls and the
 * anonymous ones share these rules through the Caller, like the evaluations they belong to.
 */
import type { Photo } from '../../../common/api/entities.ts';
import {
  evidenceMessages,
  PHOTOS_PER_RESULT_MAX,
  takesEvidence,
  type PhotoSize,
} from '../../../common/evidence.ts';
import type { DialectName } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import type { InlineFileAnswer } from '../../http/handlers.ts';
import { extensionOf, storePhoto, type ProcessedPhoto } from '../../storage/photos.ts';
import type { Storage } from '../../storage/storage.ts';
import { isOwn, type Caller } from './caller.ts';

export const photoMessages = {
  evaluationNotFound: 'The evaluation was not found.',
  alreadyComplete: 'This evaluation is already complete.',
  itemNotOnCard: 'The item is not on this card.',
};

interface PhotoPlace {
  db: Db;
  dialect: DialectName;
  storage: Storage;
}

/** The caller's own open evaluation (anything else is not found: open evaluations are hidden from others). */
export async function ownOpenEvaluation(place: PhotoPlace, caller: Caller, evalId: number, lock: boolean) {
  const row = await place.db
    .selectFrom('evaluations')
    .select(['id', 'card_id', 'user_id', 'anon_key_id', 'started_at', 'completed_at'])
    .where('org_id', '=', caller.orgId)
    .where('id', '=', evalId)
    .$if(caller.boardId !== undefined, (qb) => qb.where('board_id', '=', caller.boardId!))
    // Two uploads racing for the last of the five places: the second waits for the first (PostgreSQL;
    // SQLite runs one writing transaction at a time anyway).
    .$if(lock && place.dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row || !isOwn(caller, row, row.started_at)) throw notFound(photoMessages.evaluationNotFound);
  if (row.completed_at !== null) throw conflict(photoMessages.alreadyComplete);
  return row;
}

/** add-result-photo: stores the photo and its thumbnail, then records them. */
export async function attachPhoto(
  place: PhotoPlace,
  caller: Caller,
  input: { evalId: number; itemId: number },
  upload: ProcessedPhoto,
  now: number,
): Promise<Photo> {
  const { db, storage } = place;
  const evaluation = await ownOpenEvaluation(place, caller, input.evalId, true);
  const item = await db
    .selectFrom('card_items')
    .select(['id', 'type'])
    .where('org_id', '=', caller.orgId)
    .where('card_id', '=', evaluation.card_id)
    .where('id', '=', input.itemId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!item) throw notFound(photoMessages.itemNotOnCard);
  if (!takesEvidence(item.type)) throw conflict(evidenceMessages.noEvidence);
  const count = await db
    .selectFrom('result_photos')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', caller.orgId)
    .where('evaluation_id', '=', evaluation.id)
    .where('item_id', '=', item.id)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= PHOTOS_PER_RESULT_MAX) throw conflict(evidenceMessages.tooMany);

  const row = await storePhoto(storage, `org-${caller.orgId}/evaluation-${evaluation.id}`, upload, (stored) =>
    db
      .insertInto('result_photos')
      .values({
        ...stored,
        org_id: caller.orgId,
        evaluation_id: evaluation.id,
        item_id: item.id,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return { id: row.id, itemID: item.id, width: upload.width, height: upload.height };
}

/** delete-result-photo: the caller's own open evaluation's photo; its files go once the change commits. */
export async function removePhoto(
  place: PhotoPlace,
  caller: Caller,
  photoId: number,
  afterCommit: (task: () => Promise<void>) => void,
): Promise<{ id: number }> {
  const { db, storage } = place;
  const photo = await db
    .selectFrom('result_photos')
    .select(['id', 'evaluation_id', 'storage_key', 'thumb_key'])
    .where('org_id', '=', caller.orgId)
    .where('id', '=', photoId)
    .executeTakeFirst();
  if (!photo) throw notFound(evidenceMessages.photoNotFound);
  try {
    await ownOpenEvaluation(place, caller, photo.evaluation_id, false);
  } catch (error) {
    // Another member's (or another board's) evaluation: its photo is simply not found.
    if (error instanceof AppError && error.code === 'NOT_FOUND')
      throw notFound(evidenceMessages.photoNotFound);
    throw error;
  }
  await db
    .deleteFrom('result_photos')
    .where('org_id', '=', caller.orgId)
    .where('id', '=', photo.id)
    .execute();
  afterCommit(() => removeObjects(storage, [photo.storage_key, photo.thumb_key]));
  return { id: photo.id };
}

export async function removeObjects(storage: Storage, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => storage.delete(key)));
}

/**
 * get-result-photo: a photo of a completed evaluation of the caller's organisation (an anonymous key: of an
 * evaluation it started, within its hours), or of the caller's own open one. Anything else is not found.
 */
export async function readPhoto(
  place: PhotoPlace,
  caller: Caller,
  input: { photoId: number; size: PhotoSize },
): Promise<InlineFileAnswer> {
  const row = await place.db
    .selectFrom('result_photos')
    .innerJoin('evaluations', 'evaluations.id', 'result_photos.evaluation_id')
    .select([
      'result_photos.id',
      'result_photos.storage_key',
      'result_photos.content_type',
      'result_photos.thumb_key',
      'result_photos.thumb_type',
      'evaluations.user_id',
      'evaluations.anon_key_id',
      'evaluations.started_at',
      'evaluations.completed_at',
    ])
    .where('result_photos.org_id', '=', caller.orgId)
    .where('evaluations.org_id', '=', caller.orgId)
    .where('result_photos.id', '=', input.photoId)
    .$if(caller.boardId !== undefined, (qb) => qb.where('evaluations.board_id', '=', caller.boardId!))
    .executeTakeFirst();
  const anonymous = caller.who.anonKeyId !== null;
  const visible = row && (anonymous || row.completed_at === null ? isOwn(caller, row, row.started_at) : true);
  if (!row || !visible) throw notFound(evidenceMessages.photoNotFound);
  const thumb = input.size === 'thumb';
  const body = await place.storage.get(thumb ? row.thumb_key : row.storage_key);
  if (!body) throw notFound(evidenceMessages.photoNotFound);
  const contentType = thumb ? row.thumb_type : row.content_type;
  return {
    file: {
      filename: `photo-${row.id}${thumb ? '-thumb' : ''}.${extensionOf(contentType)}`,
      contentType,
      body,
      inline: true as const,
    },
  };
}

export interface PhotoSummary {
  id: number;
  width: number;
  height: number;
}

/** The photos of several evaluations in one query: evaluation → item → photos, oldest first. */
export async function photosOf(
  db: Db,
  orgId: number,
  evaluationIds: number[],
): Promise<Map<number, Map<number, PhotoSummary[]>>> {
  const out = new Map<number, Map<number, PhotoSummary[]>>();
  if (!evaluationIds.length) return out;
  const rows = await db
    .selectFrom('result_photos')
    .select(['id', 'evaluation_id', 'item_id', 'width', 'height'])
    .where('org_id', '=', orgId)
    .where('evaluation_id', 'in', evaluationIds)
    .orderBy('evaluation_id')
    .orderBy('item_id')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    let byItem = out.get(row.evaluation_id);
    if (!byItem) out.set(row.evaluation_id, (byItem = new Map()));
    const list = byItem.get(row.item_id) ?? [];
    list.push({ id: row.id, width: row.width, height: row.height });
    byItem.set(row.item_id, list);
  }
  return out;
}

/** How many photos each item of one evaluation has (add-results' "photo required on Fail"). */
export async function photoCounts(db: Db, orgId: number, evaluationId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('result_photos')
    .select(['item_id', (eb) => eb.fn.countAll().as('n')])
    .where('org_id', '=', orgId)
    .where('evaluation_id', '=', evaluationId)
    .groupBy('item_id')
    .execute();
  return new Map(rows.map((row) => [row.item_id, Number(row.n)]));
}

/** Deletes an evaluation's photo rows; answers the storage keys to remove once the deletion commits. */
export async function deletePhotoRows(db: Db, orgId: number, evaluationId: number): Promise<string[]> {
  const rows = await db
    .deleteFrom('result_photos')
    .where('org_id', '=', orgId)
    .where('evaluation_id', '=', evaluationId)
    .returning(['storage_key', 'thumb_key'])
    .execute();
  return rows.flatMap((row) => [row.storage_key, row.thumb_key]);
}
