/**
 * The last data seen, kept on the device so the boards panel, a board, the evaluation selection and the
 * evaluation page open without a network (issue 14, docs/decisions/0730). Only the reads those pages make
 * are kept; signing out clears the query cache, and so what is kept.
 */
import {
  dehydrate,
  hydrate,
  type DehydratedState,
  type Query,
  type QueryClient,
} from '@tanstack/react-query';
import { ApiError } from '../../lib/api.ts';
import { hasIndexedDb, offlineDb } from './db.ts';

/** The first part of the query keys worth keeping (web/lib/queryKeys.ts and the features' own keys). */
const KEPT = new Set(['user-data', 'boards', 'boards-used', 'board-cards', 'card', 'evaluations-board']);
const MAX_AGE_MS = 7 * 24 * 60 * 60_000;
/** Raised when what is kept changes shape: an older copy is then ignored. */
const FORMAT = 1;

/** The server could not be reached: the data the query held before is still the last seen. */
const unreachable = (error: unknown) => !(error instanceof ApiError) || error.status === 0;

/**
 * A query worth keeping: one of the kept reads, holding data. A refresh that failed for want of a network
 * leaves the query's status 'error' with its data in place; that data is still the last seen, and is kept
 * (decision 0783). One the server refused (gone, forbidden, signed out) is not.
 */
export const kept = (query: Query): boolean => {
  const [first, second] = query.queryKey as unknown[];
  const name = first === 'evaluations' && second === 'board' ? 'evaluations-board' : String(first);
  if (!KEPT.has(name) || query.state.data === undefined) return false;
  return (
    query.state.status === 'success' || (query.state.status === 'error' && unreachable(query.state.error))
  );
};

/**
 * What is kept, every query stored as the success its data was: put back offline, a query whose last refresh
 * failed shows its data, not its error.
 */
export function keptState(queryClient: QueryClient): DehydratedState {
  const state = dehydrate(queryClient, { shouldDehydrateQuery: kept });
  return {
    ...state,
    queries: state.queries.map((query) => ({
      ...query,
      state: {
        ...query.state,
        status: 'success',
        error: null,
        errorUpdatedAt: 0,
        fetchFailureCount: 0,
        fetchFailureReason: null,
        fetchStatus: 'idle',
      },
    })),
  };
}

interface Stored {
  format: number;
  savedAt: number;
  state: DehydratedState;
}

/**
 * Offline, puts back what was kept (never over newer data); then keeps the cache as it changes, at most every
 * 300 ms.
 */
export async function keepQueries(queryClient: QueryClient): Promise<() => void> {
  if (!hasIndexedDb()) return () => {};
  // Only without a network: online every page reads afresh, so what one member kept never shows to another
  // who signed in on the same browser without signing out. Online nothing is read, and the first page does
  // not wait for the database to open (decision 0768).
  if (!navigator.onLine) {
    try {
      const db = await offlineDb();
      const stored = (await db.get('cache', 'queries')) as Stored | undefined;
      if (stored && stored.format === FORMAT && Date.now() - stored.savedAt < MAX_AGE_MS)
        hydrate(queryClient, stored.state);
    } catch {
      // Nothing kept, or unreadable: the app works as without it.
    }
  }
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    timer = null;
    const state = keptState(queryClient);
    void offlineDb()
      .then((db) =>
        db.put('cache', { format: FORMAT, savedAt: Date.now(), state } satisfies Stored, 'queries'),
      )
      .catch(() => {});
  };
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' && event.type !== 'removed') return;
    timer ??= setTimeout(save, 300);
  });
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}

/** Signing out forgets what was kept at once (the cache's own clearing reaches it a second later). */
export async function forgetQueries(): Promise<void> {
  if (!hasIndexedDb()) return;
  try {
    await (await offlineDb()).delete('cache', 'queries');
  } catch {
    // Nothing kept.
  }
}
