import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../common/api/index.ts';
import { IDEMPOTENCY_KEY_HEADER, REQUEST_TIMEOUT_MS } from '../../common/constants.ts';
import { ApiError, apiEvents, callApi, NETWORK_FAILURE_MESSAGE, nextTask } from './api.ts';

type Call = { url: string; init: RequestInit };

function scripted(...answers: (Response | Error | 'hang')[]) {
  const calls: Call[] = [];
  const fetchImpl = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const next = answers.shift();
    if (!next) throw new Error('no scripted answer left');
    if (next === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    if (next instanceof Error) throw next;
    return next;
  });
  return { fetchImpl: fetchImpl as unknown as typeof fetch, calls };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('callApi', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([408, 502, 503, 504, 522, 524])(
    'retries status %i with 300, 600, 1200 ms delays, then gives up',
    async (status) => {
      const { fetchImpl, calls } = scripted(
        json(status, {}),
        json(status, {}),
        json(status, {}),
        json(status, { errMsg: 'still down' }),
      );
      const sleeps: number[] = [];
      const result = callApi(
        api.addBoard,
        { name: 'Line 1', cardIDs: [], hasAnonymous: false },
        {
          fetch: fetchImpl,
          sleep: async (ms) => void sleeps.push(ms),
        },
      );
      await expect(result).rejects.toEqual(new ApiError(status, 'still down'));
      expect(calls).toHaveLength(4);
      expect(sleeps).toEqual([300, 600, 1200]);
    },
  );

  it.each([408, 502, 503, 504, 522, 524])('succeeds when a retry of status %i answers', async (status) => {
    const { fetchImpl, calls } = scripted(json(status, {}), json(200, { board: { id: 1 } }));
    const answer = await callApi(
      api.addBoard,
      { name: 'Line 1', cardIDs: [], hasAnonymous: false },
      {
        fetch: fetchImpl,
        sleep: async () => {},
      },
    );
    expect(answer).toEqual({ board: { id: 1 } });
    expect(calls).toHaveLength(2);
  });

  it('waits the real backoff delays with timers', async () => {
    const { fetchImpl, calls } = scripted(json(503, {}), json(503, {}), json(200, { id: 3 }));
    const result = callApi(api.deleteBoard, { id: 3 }, { fetch: fetchImpl });
    await vi.advanceTimersByTimeAsync(299);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(599);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ id: 3 });
    expect(calls).toHaveLength(3);
  });

  it.each([400, 401, 403, 404, 409, 429, 500])(
    'does not retry status %i and shows the server errMsg',
    async (status) => {
      const { fetchImpl, calls } = scripted(
        json(status, { errMsg: 'The name already exists.', errField: 'name' }),
      );
      await expect(callApi(api.addCard, { name: 'x' }, { fetch: fetchImpl })).rejects.toEqual(
        new ApiError(status, 'The name already exists.', 'name'),
      );
      expect(calls).toHaveLength(1);
    },
  );

  it("falls back to the call's SPEC message when the server gives none", async () => {
    const { fetchImpl } = scripted(new Response('<html>Bad gateway</html>', { status: 500 }));
    await expect(
      callApi(api.addBoard, { name: 'L', cardIDs: [], hasAnonymous: false }, { fetch: fetchImpl }),
    ).rejects.toEqual(new ApiError(500, 'Unable to create the board. Please try again.'));
  });

  it('reports a network failure with SPEC §8 message', async () => {
    const { fetchImpl } = scripted(new TypeError('Failed to fetch'));
    await expect(callApi(api.getBoards, {}, { fetch: fetchImpl })).rejects.toEqual(
      new ApiError(0, NETWORK_FAILURE_MESSAGE),
    );
  });

  it('gives up after the 120 s time-out', async () => {
    const { fetchImpl } = scripted('hang');
    const result = callApi(api.getBoards, {}, { fetch: fetchImpl });
    const assertion = expect(result).rejects.toEqual(new ApiError(0, NETWORK_FAILURE_MESSAGE));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    await vi.advanceTimersByTimeAsync(1);
    await assertion;
  });

  it('sends one Idempotency-Key for a state-changing call, the same on each retry', async () => {
    const { fetchImpl, calls } = scripted(json(502, {}), json(504, {}), json(200, { id: 9 }));
    await callApi(api.deleteBoard, { id: 9 }, { fetch: fetchImpl, sleep: async () => {} });
    const keys = calls.map((c) => (c.init.headers as Record<string, string>)[IDEMPOTENCY_KEY_HEADER]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    const second = scripted(json(200, { id: 9 }));
    await callApi(api.deleteBoard, { id: 9 }, { fetch: second.fetchImpl });
    expect((second.calls[0]!.init.headers as Record<string, string>)[IDEMPOTENCY_KEY_HEADER]).not.toBe(
      keys[0],
    );
  });

  it('sends no Idempotency-Key on a read', async () => {
    const { fetchImpl, calls } = scripted(json(200, { boards: [] }));
    await callApi(api.getBoards, {}, { fetch: fetchImpl });
    expect((calls[0]!.init.headers as Record<string, string>)[IDEMPOTENCY_KEY_HEADER]).toBeUndefined();
    expect(calls[0]!.init.body).toBe('{}');
  });

  it('tells the session layer when a member call is unauthenticated', async () => {
    const lost = vi.fn();
    apiEvents.onUnauthenticated = lost;
    const { fetchImpl } = scripted(json(401, { errMsg: 'Your session has expired. Please sign in again.' }));
    await expect(callApi(api.getBoards, {}, { fetch: fetchImpl })).rejects.toBeInstanceOf(ApiError);
    expect(lost).toHaveBeenCalledWith('Your session has expired. Please sign in again.');
    apiEvents.onUnauthenticated = undefined;
  });

  it('puts a GET call’s fields in the query string', async () => {
    const { fetchImpl, calls } = scripted(json(200, { dashboards: [] }));
    await callApi(api.getDashboards, {}, { fetch: fetchImpl });
    expect(calls[0]!.url).toBe('/api/get-dashboards');
    expect(calls[0]!.init.method).toBe('GET');
    expect(calls[0]!.init.body).toBeUndefined();
  });
});

describe('nextTask', () => {
  it('resolves in a task of its own, not among the microtasks of the one that asked', async () => {
    let resolved = false;
    const done = nextTask().then(() => (resolved = true));
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(resolved).toBe(false);
    await done;
    expect(resolved).toBe(true);
  });
});
