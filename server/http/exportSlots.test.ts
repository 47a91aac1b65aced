/**
 * Exports run one per organisation (a lease in the database, across processes) and a few per process
 * (decision 0621); further requests are refused with 429 and a message, before any work is done.
 */
import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { expect, it } from 'vitest';
import { buildTeam, signIn } from '../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../test/harness.ts';
import { EXPORT_LEASE_MS, ExportSlots, exportMessages, releasingStream } from './exportSlots.ts';

const quietLog = { warn: () => {} } as unknown as FastifyBaseLogger;

const leases = (env: TestEnv, orgIds: number[]) =>
  env.db
    .selectFrom('export_leases')
    .select(['org_id', 'holder', 'expires_at'])
    .where('org_id', 'in', orgIds)
    .execute();

/** Waits for the release's delete, which runs after the download has been read. */
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

describeEachDatabase('export slots', (env) => {
  it('refuses an export while another runs for the organisation, in any process, and not for another', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const cookie = await signIn(env, team.evaluator);
    // An export of this organisation running in another process: its lease is live.
    await env.db
      .insertInto('export_leases')
      .values({ org_id: team.org.id, holder: 'another process', expires_at: env.clock.now() + 30_000 })
      .execute();
    for (const name of ['getExcel', 'getFeedbackExcel'] as const) {
      expect(await call(env, name, {}, { cookie })).toMatchObject({
        status: 429,
        body: { errMsg: exportMessages.organisationBusy },
      });
    }
    // Another organisation's export runs, and leaves no lease behind once downloaded.
    const theirs = await call(env, 'getExcel', {}, { cookie: await signIn(env, other.evaluator) });
    expect(theirs.status).toBe(200);
    // Released before the download's last byte: gone as soon as the download has ended.
    expect(await leases(env, [other.org.id])).toEqual([]);
    // Bad input is refused as such, before any slot is looked at.
    expect(await call(env, 'getExcel', { quantity: 'many' }, { cookie })).toMatchObject({ status: 400 });

    // The other process died: once its lease has expired, the next export takes it over.
    env.clock.advance(30_001);
    const mine = await call(env, 'getExcel', {}, { cookie });
    expect(mine.status).toBe(200);
    expect(await leases(env, [team.org.id])).toEqual([]);
    expect((await call(env, 'getFeedbackExcel', {}, { cookie })).status).toBe(200);
  });

  it('lets one of many parallel claims for an organisation through, across two processes', async () => {
    const team = await buildTeam(env);
    const processes = [new ExportSlots(env.db, env.clock, 10), new ExportSlots(env.db, env.clock, 10)];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => processes[i % 2]!.claim(team.org.id, quietLog)),
    );
    const claimed = outcomes.filter((o) => o.status === 'fulfilled');
    expect(claimed).toHaveLength(1);
    for (const refused of outcomes.filter((o) => o.status === 'rejected')) {
      expect(refused.reason).toMatchObject({ status: 429, errMsg: exportMessages.organisationBusy });
    }
    expect(processes[0]!.inProcess + processes[1]!.inProcess).toBe(1);
    const release = (claimed[0] as PromiseFulfilledResult<() => Promise<void>>).value;
    await Promise.all([release(), release()]);
    expect(processes[0]!.inProcess + processes[1]!.inProcess).toBe(0);
    expect(await leases(env, [team.org.id])).toEqual([]);
    const again = await processes[1]!.claim(team.org.id, quietLog);
    await again();
  });

  it('runs at most its number of exports in one process, whichever organisations', async () => {
    const teams = [await buildTeam(env), await buildTeam(env), await buildTeam(env)];
    const slots = new ExportSlots(env.db, env.clock, 2);
    const first = await slots.claim(teams[0]!.org.id, quietLog);
    const second = await slots.claim(teams[1]!.org.id, quietLog);
    await expect(slots.claim(teams[2]!.org.id, quietLog)).rejects.toMatchObject({
      status: 429,
      errMsg: exportMessages.serverBusy,
    });
    // Refused by the process, the third organisation's lease was never taken.
    expect(
      (
        await leases(
          env,
          teams.map((t) => t.org.id),
        )
      )
        .map((l) => l.org_id)
        .sort(),
    ).toEqual([teams[0]!.org.id, teams[1]!.org.id].sort());
    await first();
    const third = await slots.claim(teams[2]!.org.id, quietLog);
    await Promise.all([second(), third()]);
  });

  it('renews a running export’s lease, so a long export keeps its organisation’s slot', async () => {
    const team = await buildTeam(env);
    const slots = new ExportSlots(env.db, env.clock, 2, 300);
    const release = await slots.claim(team.org.id, quietLog);
    const [lease] = await leases(env, [team.org.id]);
    expect(lease!.expires_at).toBe(env.clock.now() + 300);
    env.clock.advance(250);
    await until(async () => (await leases(env, [team.org.id]))[0]!.expires_at === env.clock.now() + 300);
    env.clock.advance(250);
    // Past the first expiry, but renewed: still this export's.
    await expect(
      new ExportSlots(env.db, env.clock, 2, 300).claim(team.org.id, quietLog),
    ).rejects.toMatchObject({
      status: 429,
    });
    await release();
    expect(EXPORT_LEASE_MS).toBe(60_000);
  });
});

it('releases a download’s slot once the file is written, before its end is sent, and when the client leaves', async () => {
  let released = 0;
  const release = () => {
    released++;
    return Promise.resolve();
  };
  const body = new PassThrough();
  const sent = releasingStream(body, release);
  body.write('the whole ');
  await new Promise((resolve) => setImmediate(resolve));
  // Still being written: still running.
  expect(released).toBe(0);
  body.end('file');
  const chunks: Buffer[] = [];
  sent.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise((resolve) => sent.once('end', resolve));
  expect(released).toBeGreaterThanOrEqual(1);
  expect(Buffer.concat(chunks).toString()).toBe('the whole file');

  let left = 0;
  const unread = new PassThrough();
  const dropped = releasingStream(unread, () => {
    left++;
    return Promise.resolve();
  });
  unread.write('part of the file');
  dropped.destroy();
  await new Promise((resolve) => setImmediate(resolve));
  expect(left).toBeGreaterThanOrEqual(1);
  expect(unread.destroyed).toBe(true);
});
