/**
 * The photos of an evaluation being answered, item by item: shrunk, uploaded with progress, retried with
 * the same key, removed. A failed upload stays on the item with its error and a Retry; it never touches
 * the answers (they live in the form's own state).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Photo } from '../../../../common/api/index.ts';
import { ApiError, newIdempotencyKey } from '../../../lib/api.ts';
import { shrinkPhoto } from '../../../shared/photos/shrink.ts';

/** Where an evaluation's photos go: the signed-in calls, or the anonymous ones with their key. */
export interface EvidenceTarget {
  upload(
    itemID: number,
    photo: Blob,
    options: { idempotencyKey: string; onProgress: (fraction: number) => void },
  ): Promise<Photo>;
  remove(photoID: number): Promise<unknown>;
  /** For messages: the calls' own fallback texts. */
  failMsg: { upload: string; remove: string };
}

const errMsgOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.errMsg : fallback);

export interface LocalPhoto {
  key: string;
  itemID: number;
  preview: string;
  blob: Blob | null;
  status: 'preparing' | 'uploading' | 'failed' | 'done' | 'removing';
  progress: number;
  error: string | null;
  photo: Photo | null;
}

export function usePhotoUploads(target: EvidenceTarget | undefined) {
  const [photos, setPhotos] = useState<LocalPhoto[]>([]);
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const urls = previews.current;
    return () => {
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  const patch = useCallback((key: string, change: Partial<LocalPhoto>) => {
    setPhotos((all) => all.map((p) => (p.key === key ? { ...p, ...change } : p)));
  }, []);

  const send = useCallback(
    async (key: string, itemID: number, blob: Blob) => {
      if (!target) return;
      patch(key, { status: 'uploading', progress: 0, error: null });
      try {
        const photo = await target.upload(itemID, blob, {
          idempotencyKey: key,
          onProgress: (progress) => patch(key, { progress }),
        });
        patch(key, { status: 'done', progress: 1, photo, blob: null });
      } catch (error) {
        patch(key, { status: 'failed', error: errMsgOf(error, target.failMsg.upload) });
      }
    },
    [target, patch],
  );

  const add = useCallback(
    async (itemID: number, file: File) => {
      const key = newIdempotencyKey();
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      setPhotos((all) => [
        ...all,
        { key, itemID, preview, blob: null, status: 'preparing', progress: 0, error: null, photo: null },
      ]);
      const blob = await shrinkPhoto(file);
      patch(key, { blob });
      await send(key, itemID, blob);
    },
    [patch, send],
  );

  const retry = useCallback(
    (key: string) => {
      const photo = photos.find((p) => p.key === key);
      if (photo?.blob) void send(key, photo.itemID, photo.blob);
    },
    [photos, send],
  );

  const remove = useCallback(
    async (key: string) => {
      const photo = photos.find((p) => p.key === key);
      if (!photo) return;
      const drop = () => {
        URL.revokeObjectURL(photo.preview);
        previews.current.delete(photo.preview);
        setPhotos((all) => all.filter((p) => p.key !== key));
      };
      if (!photo.photo || !target) return drop();
      patch(key, { status: 'removing', error: null });
      try {
        await target.remove(photo.photo.id);
        drop();
      } catch (error) {
        patch(key, { status: 'done', error: errMsgOf(error, target.failMsg.remove) });
      }
    },
    [photos, target, patch],
  );

  return { photos, add, retry, remove };
}
