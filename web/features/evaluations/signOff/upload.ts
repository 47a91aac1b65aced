/**
 * Sends an evaluation's signature (issue 13): the PNG as the raw body, the call's fields in the query string,
 * one Idempotency-Key for the attempt and its retries, as photos go.
 */
import { api } from '../../../../common/api/index.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../common/constants.ts';
import { ApiError, NETWORK_FAILURE_MESSAGE, newIdempotencyKey } from '../../../lib/api.ts';

async function send(url: string, signature: Blob): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'image/png', [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() },
      body: signature,
    });
  } catch {
    throw new ApiError(0, NETWORK_FAILURE_MESSAGE);
  }
  if (response.ok) return;
  let body: { errMsg?: string; errField?: string } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // A proxy's error page: the call's own message stands in.
  }
  throw new ApiError(response.status, body.errMsg ?? api.addEvaluationSignature.failMsg, body.errField);
}

export function uploadMemberSignature(evalID: number, signature: Blob) {
  const query = new URLSearchParams({ evalID: String(evalID) });
  return send(`${api.addEvaluationSignature.path}?${query.toString()}`, signature);
}

export function uploadAnonymousSignature(
  access: { orgName: string; boardID: number; anonKey: string },
  evalID: number,
  signature: Blob,
) {
  const query = new URLSearchParams({
    orgName: access.orgName,
    boardID: String(access.boardID),
    anonKey: access.anonKey,
    evalID: String(evalID),
  });
  return send(`${api.addEvaluationSignatureAnon.path}?${query.toString()}`, signature);
}
