/**
 * Evaluations finished on this device and not yet sent (issue 14, docs/decisions/0730), in IndexedDB so
 * nothing is lost by closing the tab or restarting the phone. Each carries the Idempotency-Keys of its
 * calls, made once when it is saved, so sending it again never applies it twice.
 */
import { useSyncExternalStore } from 'react';
import type { ResultInput } from '../../../common/api/index.ts';
import { newIdempotencyKey } from '../../lib/api.ts';
import { hasIndexedDb, offlineDb } from './db.ts';

/** What the evaluator is told when an evaluation waits on the device (issue 14's words). */
export const SAVED_ON_DEVICE = 'Saved on this device — will send when online';

export interface OutboxPhoto {
  key: string;
  itemID: number;
  blob: Blob;
  sent: boolean;
}

export interface OutboxEntry {
  id: string;
  /** Who saved it: it is sent only while the same member of the same organisation is signed in. */
  org: string;
  user: string;
  boardID: number;
  boardName: string | null;
  cardID: number;
  cardName: string | null;
  /** Known once add-evaluation has answered (or when it was started before the network went). */
  evalID: number | null;
  results: ResultInput[];
  photos: OutboxPhoto[];
  /** When the evaluator pressed Submit, by this device's clock. */
  deviceCompletedTime: string;
  keys: { start: string; results: string };
  savedAt: number;
  /** A refusal that sending again will not change, in the server's words. */
  refused: string | null;
}

export type NewOutboxEntry = Pick<
  OutboxEntry,
  'org' | 'user' | 'boardID' | 'boardName' | 'cardID' | 'cardName' | 'evalID' | 'results'
> & { photos: Omit<OutboxPhoto, 'sent'>[] };

// ------------------------------------------------------------------------------------ the count, live
/** What is waiting, as the screens show it; other tabs are told through a BroadcastChannel. */
let entries: OutboxEntry[] = [];
const listeners = new Set<() => void>();
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('checkboard-outbox');

async function reload(): Promise<void> {
  if (!hasIndexedDb()) return;
  try {
    entries = await (await offlineDb()).getAllFromIndex('outbox', 'savedAt');
  } catch {
    entries = [];
  }
  for (const listener of listeners) listener();
}
channel?.addEventListener('message', () => void reload());
let loaded = false;

function changed(): Promise<void> {
  channel?.postMessage('changed');
  return reload();
}

export function useOutbox(): OutboxEntry[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      if (!loaded) {
        loaded = true;
        void reload();
      }
      return () => listeners.delete(listener);
    },
    () => entries,
  );
}

/** How many are waiting, without React (the version banner's check). */
export const outboxSize = () => entries.length;

// ------------------------------------------------------------------------------------ reading and writing
export async function saveToOutbox(entry: NewOutboxEntry): Promise<OutboxEntry> {
  const stored: OutboxEntry = {
    ...entry,
    id: newIdempotencyKey(),
    photos: entry.photos.map((p) => ({ ...p, sent: false })),
    deviceCompletedTime: new Date().toISOString(),
    keys: { start: newIdempotencyKey(), results: newIdempotencyKey() },
    savedAt: Date.now(),
    refused: null,
  };
  await (await offlineDb()).put('outbox', stored);
  await changed();
  return stored;
}

export async function outboxEntries(): Promise<OutboxEntry[]> {
  return (await offlineDb()).getAllFromIndex('outbox', 'savedAt');
}

export async function updateOutboxEntry(entry: OutboxEntry): Promise<void> {
  await (await offlineDb()).put('outbox', entry);
  await changed();
}

export async function removeFromOutbox(id: string): Promise<void> {
  await (await offlineDb()).delete('outbox', id);
  await changed();
}
