/**
 * The app's IndexedDB database (issue 14, docs/decisions/0730): the last data seen (to open offline) and
 * the outbox of evaluations waiting to be sent. Opened once per page; every call awaits the same promise.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { OutboxEntry } from './outbox.ts';

interface OfflineSchema extends DBSchema {
  /** One record, 'queries': the dehydrated query cache. */
  cache: { key: string; value: unknown };
  outbox: { key: string; value: OutboxEntry; indexes: { savedAt: number } };
}

let opened: Promise<IDBPDatabase<OfflineSchema>> | undefined;

export function offlineDb(): Promise<IDBPDatabase<OfflineSchema>> {
  opened ??= openDB<OfflineSchema>('checkboard', 1, {
    upgrade(db) {
      db.createObjectStore('cache');
      db.createObjectStore('outbox', { keyPath: 'id' }).createIndex('savedAt', 'savedAt');
    },
  });
  return opened;
}

/** Whether this browser keeps anything (private modes and old engines may not have IndexedDB). */
export const hasIndexedDb = () => typeof indexedDB !== 'undefined';
