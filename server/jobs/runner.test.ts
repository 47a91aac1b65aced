/**
 * The job runner (decision 0601): of two processes on one database asking at once, one runs a due job;
 * it is not run again before its period; a failed run is retried; a claimant that died leaves a lease
 * that expires; a run whose lease expired and was taken over does not overwrite the new claimant's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../test/databases.ts';
import { twoInstances } from '../test/instances.ts';
import { claimJob, defineJob, finishJob, RETRY_AFTER_MS, runDueJobs } from './runner.ts';

const HOUR = 60 * 60_000;

for (const dialect of TEST_DIALECTS) {
  describe(`job runner [${dialect}]`, () => {
    let env: Awaited<ReturnType<typeof twoInstances>>;
    beforeAll(async () => {
      env = await twoInstances(dialect);
    });
    afterAll(async () => {
      await env?.close();
    });
    const services = (i: number) => env.apps[i]!.services;
    const row = (name: string) =>
      env.db.selectFrom('job_runs').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

    it('runs a due job once when two processes ask at once, many times over', async () => {
      let runs = 0;
      const job = defineJob('count-once', HOUR, async () => {
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      const asks = await Promise.all(
        Array.from({ length: 10 }, (_, i) => runDueJobs(services(i % 2), [job], `owner-${i}`)),
      );
      expect(runs).toBe(1);
      expect(asks.flat()).toEqual(['count-once']);
      expect(await row('count-once')).toMatchObject({ runs: 1, lease_owner: null, last_error: null });

      // Not due again within its period; due once it has passed.
      env.clock.advance(HOUR - 1);
      await Promise.all([runDueJobs(services(0), [job], 'a'), runDueJobs(services(1), [job], 'b')]);
      expect(runs).toBe(1);
      env.clock.advance(1);
      await Promise.all([runDueJobs(services(0), [job], 'a'), runDueJobs(services(1), [job], 'b')]);
      expect(runs).toBe(2);
    });

    it('records a failure and tries again after the retry delay', async () => {
      let attempts = 0;
      const job = defineJob('fails-once', HOUR, async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('disk full');
      });
      await runDueJobs(services(0), [job], 'a');
      expect(await row('fails-once')).toMatchObject({ last_error: 'disk full', lease_owner: null });
      env.clock.advance(RETRY_AFTER_MS - 1);
      await runDueJobs(services(1), [job], 'b');
      expect(attempts).toBe(1);
      env.clock.advance(1);
      await runDueJobs(services(1), [job], 'b');
      expect(attempts).toBe(2);
      expect(await row('fails-once')).toMatchObject({ last_error: null, runs: 2 });
    });

    it('lets another process take a job whose claimant died, once its lease expires', async () => {
      const job = defineJob('orphaned', HOUR, async () => {}, { leaseMs: 60_000 });
      const startedAt = env.clock.now();
      // The first claimant takes it and never finishes (killed).
      expect(await claimJob(services(0), job, 'dead', startedAt)).toBe(true);
      expect(await runDueJobs(services(1), [job], 'alive')).toEqual([]);
      env.clock.advance(60_000);
      expect(await runDueJobs(services(1), [job], 'alive')).toEqual(['orphaned']);
      // The dead claimant's late finish does not touch the schedule the survivor set.
      const after = await row('orphaned');
      await finishJob(services(0), job, 'dead', startedAt, null);
      expect(await row('orphaned')).toEqual(after);
      expect(after).toMatchObject({ runs: 1, next_run_at: env.clock.now() + HOUR });
    });
  });
}
