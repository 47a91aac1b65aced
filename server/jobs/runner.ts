/**
 * Periodic jobs claimed in the database, so that of several app processes exactly one runs each due job
 * (decision 0601). A job is `defineJob(name, everyMs, run)`; its row in job_runs holds when it is next due
 * and who holds it now. A process claims a due job with one conditional UPDATE (due, and no live lease):
 * the database lets one UPDATE win. The winner runs it, then sets the next due time and drops the lease,
 * only if the lease is still its own. A claimant that dies leaves a lease that expires, and the job is
 * claimed again by whoever polls next.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../context.ts';

export interface Job {
  name: string;
  everyMs: number;
  /** How long a claim lasts: a run must finish within it (default 10 minutes). */
  leaseMs: number;
  run(services: Services, now: number): Promise<void>;
}

const DEFAULT_LEASE_MS = 10 * 60_000;
/** A failed run is tried again after this long (or its period, if shorter). */
export const RETRY_AFTER_MS = 5 * 60_000;

export function defineJob(
  name: string,
  everyMs: number,
  run: Job['run'],
  options: { leaseMs?: number } = {},
): Job {
  return { name, everyMs, run, leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS };
}

/** This process, as named in the leases it holds. */
export const processOwner = () => `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** Claims the job if it is due and no live lease holds it. True when this owner won it. */
export async function claimJob(services: Services, job: Job, owner: string, now: number): Promise<boolean> {
  const { db } = services;
  // The first process to see the job makes its row, due at once.
  await db
    .insertInto('job_runs')
    .values({ name: job.name, next_run_at: now, lease_owner: null, lease_until: 0, runs: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const claimed = await db
    .updateTable('job_runs')
    .set({ lease_owner: owner, lease_until: now + job.leaseMs, last_started_at: now })
    .where('name', '=', job.name)
    .where('next_run_at', '<=', now)
    .where('lease_until', '<=', now)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** Records the run's end, if the lease is still this owner's (an expired and re-claimed one is not). */
export async function finishJob(
  services: Services,
  job: Job,
  owner: string,
  startedAt: number,
  error: unknown,
): Promise<void> {
  const now = services.clock.now();
  await services.db
    .updateTable('job_runs')
    .set((eb) => ({
      next_run_at: error ? now + Math.min(job.everyMs, RETRY_AFTER_MS) : startedAt + job.everyMs,
      lease_owner: null,
      lease_until: 0,
      runs: eb('runs', '+', 1),
      last_finished_at: now,
      last_error: error ? String((error as Error).message ?? error).slice(0, 500) : null,
    }))
    .where('name', '=', job.name)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Runs every job that is due and that this process wins; answers the names of those it ran. */
export async function runDueJobs(
  services: Services,
  jobs: readonly Job[],
  owner: string,
  log?: FastifyBaseLogger,
): Promise<string[]> {
  const ran: string[] = [];
  for (const job of jobs) {
    const now = services.clock.now();
    if (!(await claimJob(services, job, owner, now))) continue;
    let failure: unknown = null;
    try {
      await job.run(services, now);
    } catch (error) {
      failure = error ?? new Error('failed');
      log?.error({ err: error, job: job.name }, 'job failed');
    }
    await finishJob(services, job, owner, now, failure);
    if (!failure) log?.info({ job: job.name, owner }, 'job ran');
    ran.push(job.name);
  }
  return ran;
}

/**
 * Polls for due jobs every `pollMs` (first after one poll, spread by a random part so processes started
 * together do not all ask at once). A database that is down only makes a poll fail; the next one tries
 * again. Answers the stop function.
 */
export function startJobs(
  services: Services,
  jobs: readonly Job[],
  log: FastifyBaseLogger,
  pollMs: number,
): () => void {
  const owner = processOwner();
  let running = false;
  let stopped = false;
  const poll = async () => {
    if (running || stopped) return;
    running = true;
    try {
      await runDueJobs(services, jobs, owner, log);
    } catch (error) {
      log.warn({ err: error }, 'could not check for due jobs');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(poll, Math.round(pollMs * (0.5 + Math.random() / 2)));
  const timer = setInterval(poll, pollMs);
  first.unref();
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
  };
}
