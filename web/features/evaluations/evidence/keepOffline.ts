/**
 * Photos taken while the browser is offline (issue 14, docs/decisions/0730): kept with the evaluation on the
 * device instead of failing, under the key their upload will carry when the outbox sends them.
 */
import type { EvidenceTarget } from './usePhotoUploads.ts';

export interface KeptPhoto {
  key: string;
  itemID: number;
  blob: Blob;
}

export function keepingOffline(target: EvidenceTarget) {
  const kept = new Map<number, KeptPhoto>();
  let last = 0;
  const keep = (itemID: number, blob: Blob, key: string, onProgress: (f: number) => void) => {
    // Negative ids never meet a stored photo's.
    const id = --last;
    kept.set(id, { key, itemID, blob });
    onProgress(1);
    return { id, itemID, width: 0, height: 0 };
  };
  const offlineTarget: EvidenceTarget = {
    failMsg: target.failMsg,
    // Online, a failed upload fails as before (the item offers Retry, decision 0643); kept only offline.
    async upload(itemID, photo, options) {
      if (!navigator.onLine) return keep(itemID, photo, options.idempotencyKey, options.onProgress);
      return target.upload(itemID, photo, options);
    },
    async remove(photoID) {
      if (kept.delete(photoID)) return;
      return target.remove(photoID);
    },
  };
  return { target: offlineTarget, kept: () => [...kept.values()] };
}
