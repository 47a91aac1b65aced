/** Where an evaluation's photos go: the signed-in calls, or the anonymous ones within the key. */
import { api, type Photo } from '../../../../common/api/index.ts';
import { callApi } from '../../../lib/api.ts';
import { uploadPhoto } from '../../../shared/photos/upload.ts';
import type { EvidenceTarget } from './usePhotoUploads.ts';

const failMsg = { upload: api.addResultPhoto.failMsg, remove: api.deleteResultPhoto.failMsg };

/** `evaluation` answers the evaluation's id, starting it first when the page has none yet. */
export function memberEvidence(evaluation: () => Promise<number>): EvidenceTarget {
  return {
    failMsg,
    async upload(itemID, photo, options) {
      const evalID = await evaluation();
      const query = new URLSearchParams({ evalID: String(evalID), itemID: String(itemID) });
      return uploadPhoto<Photo>(`${api.addResultPhoto.path}?${query.toString()}`, photo, {
        ...options,
        failMsg: failMsg.upload,
      });
    },
    remove: (photoID) => callApi(api.deleteResultPhoto, { photoID }),
  };
}

export function anonymousEvidence(
  access: { orgName: string; boardID: number; anonKey: string },
  evalID: number,
): EvidenceTarget {
  return {
    failMsg,
    upload(itemID, photo, options) {
      const query = new URLSearchParams({
        orgName: access.orgName,
        boardID: String(access.boardID),
        anonKey: access.anonKey,
        evalID: String(evalID),
        itemID: String(itemID),
      });
      return uploadPhoto<Photo>(`${api.addResultPhotoAnon.path}?${query.toString()}`, photo, {
        ...options,
        failMsg: failMsg.upload,
      });
    },
    remove: (photoID) => callApi(api.deleteResultPhotoAnon, { ...access, photoID }),
  };
}
