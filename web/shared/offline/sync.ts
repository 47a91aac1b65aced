/**
 * Sends what the outbox holds (issue 14, docs/decisions/0730), oldest first, step by step: start the
 * evaluation, upload its photos, then its results with the device's completion time. Each step's answer is
 * written back before the next, each call carries the key made when the entry was saved, so a tab closed
 * half way, or a retry of a call whose answer was lost, never applies anything twice. One tab sends at a
 * time (a Web Lock); what the server refuses for good stays, with its message, for the evaluator to see.
 */
import type { QueryClient } from '@tanstack/react-query';
import { api, type Photo } from '../../../common/api/index.ts';
import { uploadPhoto } from '../photos/upload.ts';
import { ApiError, callApi } from '../../lib/api.ts';
import { outboxEntries, removeFromOutbox, updateOutboxEntry, type OutboxEntry } from './outbox.ts';

/** Whether trying again later may succeed: no network, the server busy or down, or signed out. */
const transient = (error: unknown) =>
  !(error instanceof ApiError) ||
  error.status === 0 ||
  error.status === 401 ||
  error.status === 429 ||
  error.status >= 500;

async function send(entry: OutboxEntry): Promise<void> {
  if (entry.evalID === null) {
    const { id } = await callApi(
      api.addEvaluation,
      { boardID: entry.boardID, cardID: entry.cardID },
      { idempotencyKey: entry.keys.start },
    );
    entry.evalID = id;
    await updateOutboxEntry(entry);
  }
  const evalID = entry.evalID;
  for (const photo of entry.photos) {
    if (photo.sent) continue;
    const query = new URLSearchParams({ evalID: String(evalID), itemID: String(photo.itemID) });
    await uploadPhoto<Photo>(`${api.addResultPhoto.path}?${query.toString()}`, photo.blob, {
      idempotencyKey: photo.key,
      failMsg: api.addResultPhoto.failMsg,
      onProgress: () => {},
    });
    photo.sent = true;
    await updateOutboxEntry(entry);
  }
  try {
    await callApi(
      api.addResults,
      { evalID, results: entry.results, deviceCompletedTime: entry.deviceCompletedTime },
      { idempotencyKey: entry.keys.results },
    );
  } catch (error) {
    // Complete already: an earlier attempt arrived and its answer was lost.
    if (!(error instanceof ApiError && error.status === 409)) throw error;
  }
  await removeFromOutbox(entry.id);
}

/** Sends every entry of the member signed in; answers how many arrived. */
export async function sendOutbox(who: { org: string; user: string }): Promise<number> {
  const run = async () => {
    let arrived = 0;
    for (const entry of await outboxEntries()) {
      if (entry.refused !== null || entry.org !== who.org || entry.user !== who.user) continue;
      try {
        await send(entry);
        arrived++;
      } catch (error) {
        if (transient(error)) break;
        entry.refused = (error as ApiError).errMsg;
        await updateOutboxEntry(entry);
      }
    }
    return arrived;
  };
  // One tab at a time; a tab that finds another sending leaves it to that one.
  if (typeof navigator !== 'undefined' && navigator.locks)
    return navigator.locks.request('checkboard-outbox', { ifAvailable: true }, (lock) => (lock ? run() : 0));
  return run();
}

/**
 * Keeps sending while the app is open: at start, whenever the browser comes back online, and every 30 s.
 * The board's squares are read again after anything arrives.
 */
export function startSendingOutbox(
  queryClient: QueryClient,
  who: () => { org: string; user: string } | null,
) {
  let running = false;
  const attempt = async () => {
    const member = who();
    if (running || !member || !navigator.onLine) return;
    running = true;
    try {
      if ((await sendOutbox(member)) > 0) await queryClient.invalidateQueries({ queryKey: ['evaluations'] });
    } finally {
      running = false;
    }
  };
  const online = () => void attempt();
  window.addEventListener('online', online);
  const timer = setInterval(online, 30_000);
  void attempt();
  return {
    now: attempt,
    stop() {
      window.removeEventListener('online', online);
      clearInterval(timer);
    },
  };
}
