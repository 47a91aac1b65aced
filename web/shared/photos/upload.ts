/**
 * One photo upload with progress (XMLHttpRequest: fetch reports no upload progress). The photo goes as
 * the raw body, the call's fields in the query string; the same Idempotency-Key on a retry, so a retry of
 * an upload that did arrive is not stored twice.
 */
import { IDEMPOTENCY_KEY_HEADER } from '../../../common/constants.ts';
import { ApiError, NETWORK_FAILURE_MESSAGE } from '../../lib/api.ts';

/** Answers the call's `photo` (a result's or an action's). */
export function uploadPhoto<T = unknown>(
  url: string,
  photo: Blob,
  options: { idempotencyKey: string; failMsg: string; onProgress: (fraction: number) => void },
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('Content-Type', photo.type || 'application/octet-stream');
    request.setRequestHeader(IDEMPOTENCY_KEY_HEADER, options.idempotencyKey);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new ApiError(0, NETWORK_FAILURE_MESSAGE));
    request.ontimeout = () => reject(new ApiError(0, NETWORK_FAILURE_MESSAGE));
    request.onload = () => {
      let body: { photo?: T; errMsg?: string; errField?: string } = {};
      try {
        body = JSON.parse(request.responseText) as typeof body;
      } catch {
        // A proxy's error page: the call's own message stands in.
      }
      if (request.status === 200 && body.photo) resolve(body.photo);
      else reject(new ApiError(request.status, body.errMsg ?? options.failMsg, body.errField));
    };
    request.timeout = 120_000;
    request.send(photo);
  });
}
