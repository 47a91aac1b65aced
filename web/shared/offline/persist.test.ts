import { hydrate, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, NETWORK_FAILURE_MESSAGE } from '../../lib/api.ts';
import { keptState } from './persist.ts';

const clients: QueryClient[] = [];
const newClient = () => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
  clients.push(client);
  return client;
};
afterEach(() => {
  for (const client of clients.splice(0)) client.clear();
});

const board = { id: 'b1', name: 'Line 1', cards: ['c1', 'c2'] };

/** A refresh of a query already holding data, failing with `error`. */
async function failRefresh(client: QueryClient, queryKey: unknown[], error: Error) {
  await client
    .fetchQuery({
      queryKey,
      queryFn: () => Promise.reject(error),
      staleTime: 0,
    })
    .catch(() => {});
  expect(client.getQueryState(queryKey)?.status).toBe('error');
  expect(client.getQueryData(queryKey)).toBeDefined();
}

describe('keptState', () => {
  it('keeps the kept reads that succeeded, and no other', () => {
    const client = newClient();
    client.setQueryData(['board-cards', 'b1'], board);
    client.setQueryData(['evaluations', 'board', 'b1'], { evaluations: [] });
    client.setQueryData(['evaluations', 'search', 'x'], { evaluations: [] });
    client.setQueryData(['members'], []);

    const keys = keptState(client).queries.map((query) => query.queryKey);
    expect(keys).toEqual(
      expect.arrayContaining([
        ['board-cards', 'b1'],
        ['evaluations', 'board', 'b1'],
      ]),
    );
    expect(keys).toHaveLength(2);
  });

  it('keeps data whose refresh failed for want of a network, stored as a success that hydrates with its data', async () => {
    const client = newClient();
    client.setQueryData(['board-cards', 'b1'], board);
    await failRefresh(client, ['board-cards', 'b1'], new ApiError(0, NETWORK_FAILURE_MESSAGE));

    const state = keptState(client);
    expect(state.queries).toHaveLength(1);
    expect(state.queries[0]!.state).toMatchObject({
      data: board,
      status: 'success',
      error: null,
      fetchFailureCount: 0,
      fetchFailureReason: null,
      fetchStatus: 'idle',
    });

    // The app's next start, offline: the board is there with its cards, not an error.
    const reopened = newClient();
    hydrate(reopened, JSON.parse(JSON.stringify(state)));
    expect(reopened.getQueryState(['board-cards', 'b1'])).toMatchObject({ status: 'success', error: null });
    expect(reopened.getQueryData(['board-cards', 'b1'])).toEqual(board);
  });

  it('drops data the server refused on its refresh (gone, forbidden, signed out)', async () => {
    const client = newClient();
    for (const [id, status] of [
      ['b1', 404],
      ['b2', 403],
      ['b3', 401],
    ] as const) {
      client.setQueryData(['board-cards', id], board);
      await failRefresh(client, ['board-cards', id], new ApiError(status, 'Board not found'));
    }
    expect(keptState(client).queries).toEqual([]);
  });

  it('keeps nothing for a kept read that never held data', async () => {
    const client = newClient();
    await client
      .fetchQuery({
        queryKey: ['boards'],
        queryFn: () => Promise.reject(new ApiError(0, NETWORK_FAILURE_MESSAGE)),
      })
      .catch(() => {});
    expect(client.getQueryState(['boards'])?.status).toBe('error');
    expect(keptState(client).queries).toEqual([]);
  });
});
