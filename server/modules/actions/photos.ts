/**
 * Photos of an action's close-out (docs/decisions/0586): added while the action is open by whoever may
 * close it (its assignee, its raiser, an administrator), at most PHOTOS_PER_RESULT_MAX, removed by their
 * uploader or an administrator while it is open, shown to whoever may see the action.
 */
import type { ActionPhoto } from '../../../common/api/entities.ts';
import { mayCompleteAction, seesEveryAction } from '../../../common/actions.ts';
import { evidenceMessages, PHOTOS_PER_RESULT_MAX, type PhotoSize } from '../../../common/evidence.ts';
import type { DialectName } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { InlineFileAnswer } from '../../http/handlers.ts';
import { extensionOf, storePhoto, type ProcessedPhoto } from '../../storage/photos.ts';
import type { Storage } from '../../storage/storage.ts';
import { findVisibleAction, messages, relation, type Viewer } from './service.ts';

interface Place {
  db: Db;
  dialect: DialectName;
  storage: Storage;
}

const present = (row: { id: number; width: number; height: number }): ActionPhoto => ({
  id: row.id,
  width: row.width,
  height: row.height,
});

export async function photosOfAction(db: Db, orgId: number, actionId: number): Promise<ActionPhoto[]> {
  const rows = await db
    .selectFrom('action_photos')
    .select(['id', 'width', 'height'])
    .where('org_id', '=', orgId)
    .where('action_id', '=', actionId)
    .orderBy('id')
    .execute();
  return rows.map(present);
}

export async function addActionPhoto(
  place: Place,
  viewer: Viewer,
  actionId: number,
  upload: ProcessedPhoto,
  now: number,
): Promise<ActionPhoto> {
  const { db, storage } = place;
  const action = await findVisibleAction(db, viewer, actionId);
  if (!mayCompleteAction(viewer.role, relation(viewer, action))) throw forbidden(messages.notYours);
  if (action.status !== 'Open') throw conflict(messages.closed);
  if (place.dialect === 'postgres')
    // Two uploads racing for the last place: the second waits for the first.
    await db
      .selectFrom('actions')
      .select('id')
      .where('org_id', '=', viewer.orgId)
      .where('id', '=', action.id)
      .forUpdate()
      .execute();
  const count = await db
    .selectFrom('action_photos')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', viewer.orgId)
    .where('action_id', '=', action.id)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= PHOTOS_PER_RESULT_MAX) throw conflict(evidenceMessages.tooMany);

  const row = await storePhoto(storage, `org-${viewer.orgId}/action-${action.id}`, upload, (stored) =>
    db
      .insertInto('action_photos')
      .values({
        ...stored,
        org_id: viewer.orgId,
        action_id: action.id,
        user_id: viewer.userId,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return present({ id: row.id, width: upload.width, height: upload.height });
}

async function visiblePhoto(db: Db, viewer: Viewer, photoId: number) {
  const photo = await db
    .selectFrom('action_photos')
    .selectAll()
    .where('org_id', '=', viewer.orgId)
    .where('id', '=', photoId)
    .executeTakeFirst();
  if (!photo) throw notFound(evidenceMessages.photoNotFound);
  try {
    return { photo, action: await findVisibleAction(db, viewer, photo.action_id) };
  } catch {
    throw notFound(evidenceMessages.photoNotFound);
  }
}

export async function deleteActionPhoto(
  place: Place,
  viewer: Viewer,
  photoId: number,
  afterCommit: (task: () => Promise<void>) => void,
): Promise<{ id: number }> {
  const { photo, action } = await visiblePhoto(place.db, viewer, photoId);
  if (photo.user_id !== viewer.userId && !seesEveryAction(viewer.role)) throw forbidden(messages.notYours);
  if (action.status !== 'Open') throw conflict(messages.closed);
  await place.db
    .deleteFrom('action_photos')
    .where('org_id', '=', viewer.orgId)
    .where('id', '=', photo.id)
    .execute();
  afterCommit(async () => {
    await Promise.all([place.storage.delete(photo.storage_key), place.storage.delete(photo.thumb_key)]);
  });
  return { id: photo.id };
}

export async function readActionPhoto(
  place: Place,
  viewer: Viewer,
  input: { photoId: number; size: PhotoSize },
): Promise<InlineFileAnswer> {
  const { photo } = await visiblePhoto(place.db, viewer, input.photoId);
  const thumb = input.size === 'thumb';
  const body = await place.storage.get(thumb ? photo.thumb_key : photo.storage_key);
  if (!body) throw notFound(evidenceMessages.photoNotFound);
  const contentType = thumb ? photo.thumb_type : photo.content_type;
  return {
    file: {
      filename: `action-photo-${photo.id}${thumb ? '-thumb' : ''}.${extensionOf(contentType)}`,
      contentType,
      body,
      inline: true as const,
    },
  };
}
