/**
 * How many exports run at once (decision 0621): one per organisation, claimed as a lease in the database so
 * that it holds across app processes, and at most `perProcess` in this process, counted in memory because
 * what it protects is this process's own CPU and event loop. Further requests are refused with 429.
 */
import { randomUUID } from 'node:crypto';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/index.ts';
import { tooManyRequests } from '../errors.ts';

export const exportMessages = {
  organisationBusy:
    'An export is already running for your organisation. Please try again when it has finished.',
  serverBusy: 'The server is busy with other exports. Please try again in a minute.',
};

/** A lease outlives its process by at most this long; it is renewed three times as often while streaming. */
export const EXPORT_LEASE_MS = 60_000;

export class ExportSlots {
  private running = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly perProcess: number,
    private readonly leaseMs = EXPORT_LEASE_MS,
  ) {}

  /** Exports running in this process. */
  get inProcess() {
    return this.running;
  }

  /**
   * Claims this process's and the organisation's slot; returns the release (idempotent), or throws 429.
   * The process's slot is taken first and synchronously, so parallel requests cannot all pass the check.
   */
  async claim(orgId: number, log: FastifyBaseLogger): Promise<() => Promise<void>> {
    if (this.running >= this.perProcess) throw tooManyRequests(exportMessages.serverBusy);
    this.running++;
    const holder = randomUUID();
    let claimed: { holder: string } | undefined;
    try {
      const now = this.clock.now();
      // Insert the lease, or take over one that has expired; a live lease of another export stays.
      claimed = await this.db
        .insertInto('export_leases')
        .values({ org_id: orgId, holder, expires_at: now + this.leaseMs })
        .onConflict((oc) =>
          oc
            .column('org_id')
            .doUpdateSet({ holder, expires_at: now + this.leaseMs })
            .where('export_leases.expires_at', '<=', now),
        )
        .returning('holder')
        .executeTakeFirst();
    } catch (error) {
      this.running--;
      throw error;
    }
    if (claimed?.holder !== holder) {
      this.running--;
      throw tooManyRequests(exportMessages.organisationBusy);
    }

    const renew = setInterval(() => {
      this.db
        .updateTable('export_leases')
        .set({ expires_at: this.clock.now() + this.leaseMs })
        .where('org_id', '=', orgId)
        .where('holder', '=', holder)
        .execute()
        .catch((error: unknown) => log.warn({ err: error }, 'could not renew the export lease'));
    }, this.leaseMs / 3);
    renew.unref();
    let released: Promise<void> | undefined;
    return () =>
      (released ??= (async () => {
        clearInterval(renew);
        this.running--;
        try {
          await this.db
            .deleteFrom('export_leases')
            .where('org_id', '=', orgId)
            .where('holder', '=', holder)
            .execute();
        } catch (error) {
          // Left behind, the lease expires by itself within the lease time.
          log.warn({ err: error }, 'could not release the export lease');
        }
      })());
  }
}

/**
 * The file's stream, releasing the slot when the export is done: once the whole file is written (the reads
 * and the work are over; what is left is sending its last buffered bytes), before the end is sent, so a
 * download that has ended has freed its organisation's slot; or when it fails or the client leaves.
 */
export function releasingStream(body: Readable, release: () => Promise<void>): Readable {
  const out = new PassThrough({
    flush(done) {
      release().then(() => done(), done);
    },
  });
  out.once('close', () => void release());
  pipeline(body, out, () => {});
  return out;
}
