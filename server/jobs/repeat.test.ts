/** repeat: one run at a time, a failure told and tried again at the next tick, nothing after the stop. */
import { describe, expect, it } from 'vitest';
import { repeat } from './repeat.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('repeat', () => {
  it('skips the ticks that find a run still going', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const stop = repeat(
      async () => {
        runs++;
        running++;
        most = Math.max(most, running);
        await wait(35);
        running--;
      },
      5,
      () => {},
    );
    await wait(200);
    stop();
    expect(most).toBe(1);
    // Each run spans several ticks: far fewer runs than ticks, but more than one.
    expect(runs).toBeGreaterThan(1);
    expect(runs).toBeLessThan(15);
  });

  it('tells a failure and runs again at the next tick; after the stop, never', async () => {
    const failures: unknown[] = [];
    let runs = 0;
    const stop = repeat(
      async () => {
        runs++;
        if (runs === 1) throw new Error('first run fails');
      },
      5,
      (error) => failures.push(error),
    );
    await wait(60);
    stop();
    expect(failures).toHaveLength(1);
    expect((failures[0] as Error).message).toBe('first run fails');
    expect(runs).toBeGreaterThan(1);
    const after = runs;
    await wait(30);
    expect(runs).toBe(after);
  });

  it('aborts the signal of a run in progress when stopped', async () => {
    let signal: AbortSignal | undefined;
    let steps = 0;
    const stop = repeat(
      async (given) => {
        signal = given;
        while (!given.aborted) {
          steps++;
          await wait(2);
        }
      },
      5,
      () => {},
    );
    await wait(30);
    expect(signal?.aborted).toBe(false);
    stop();
    expect(signal?.aborted).toBe(true);
    const at = steps;
    await wait(20);
    expect(steps).toBe(at);
  });
});
