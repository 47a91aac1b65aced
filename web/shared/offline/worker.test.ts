import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_WAIT_MS, QUIET_MS, registerWhenSettled } from './worker.ts';

let busy: boolean;
let register: ReturnType<typeof vi.fn<() => void>>;
let idleTimeouts: number[];
const whenIdle = (callback: () => void, timeoutMs: number) => {
  idleTimeouts.push(timeoutMs);
  setTimeout(callback, 5);
};

beforeEach(() => {
  vi.useFakeTimers();
  busy = false;
  register = vi.fn<() => void>();
  idleTimeouts = [];
});
afterEach(() => vi.useRealTimers());

/** A load that happens when the test says. */
function loadLater() {
  let load!: () => void;
  const loaded = new Promise<void>((resolve) => (load = resolve));
  return { loaded, load };
}

describe('registerWhenSettled', () => {
  it('waits for the load, then a quiet second, then an idle moment', async () => {
    const { loaded, load } = loadLater();
    registerWhenSettled(register, { busy: () => busy, loaded, whenIdle });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(register).not.toHaveBeenCalled();
    load();
    await vi.advanceTimersByTimeAsync(QUIET_MS - 300);
    expect(register).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(600);
    expect(register).toHaveBeenCalledTimes(1);
    expect(idleTimeouts).toEqual([QUIET_MS]);
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS);
    expect(register).toHaveBeenCalledTimes(1);
  });

  it('starts the quiet second again whenever a call is in flight', async () => {
    registerWhenSettled(register, { busy: () => busy, loaded: Promise.resolve(), whenIdle });
    busy = true;
    await vi.advanceTimersByTimeAsync(3_000);
    busy = false;
    await vi.advanceTimersByTimeAsync(600);
    busy = true; // another read starts before a second has passed
    await vi.advanceTimersByTimeAsync(300);
    busy = false;
    await vi.advanceTimersByTimeAsync(QUIET_MS - 400);
    expect(register).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(800);
    expect(register).toHaveBeenCalledTimes(1);
  });

  it('registers by the deadline on a page that is never quiet', async () => {
    busy = true;
    registerWhenSettled(register, { busy: () => busy, loaded: Promise.resolve(), whenIdle });
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS - 500);
    expect(register).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(register).toHaveBeenCalledTimes(1);
  });

  it('never registers once cancelled', async () => {
    const cancel = registerWhenSettled(register, { busy: () => busy, loaded: Promise.resolve(), whenIdle });
    await vi.advanceTimersByTimeAsync(100);
    cancel();
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS * 2);
    expect(register).not.toHaveBeenCalled();
  });
});
