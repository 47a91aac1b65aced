import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { beforeAll, expect, it, vi } from 'vitest';
import type { UserActor } from '../context.ts';
import { buildBoard, buildCard, buildEvaluation, buildFeedback, buildTeam } from '../test/factories.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { unzipped } from '../test/zip.ts';
import { CARD_ITEM_CONTENT_MAX, MAX_ITEMS_PER_CARD } from '../../common/constants.ts';
import { EXPORT_BATCH } from '../modules/evaluations/excel.ts';
import { exportInWorkers } from './inWorker.ts';
import { exportInProcess, type ExportCall, type ExportTask } from './tasks.ts';
import { steady } from '../test/steady.ts';

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const logSpy = () => ({ error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() });
const asLog = (spy: ReturnType<typeof logSpy>) => spy as unknown as FastifyBaseLogger;

// Suites on a SQLite file (and PostgreSQL): a worker opens a connection of its own.
describeEachDatabase(
  'export workers',
  (env) => {
    let actor: UserActor;
    /** How many evaluations, each with three answers of 3,000 incompressible characters (~2.7 MB of file). */
    const EVALUATIONS = 300;

    beforeAll(async () => {
      const team = await buildTeam(env);
      const card = await buildCard(env, team.org, {
        name: 'Press check',
        items: [
          { type: 'text', content: '<p>One</p>' },
          { type: 'text', content: '<p>Two</p>' },
          { type: 'text', content: '<p>Three</p>' },
        ],
      });
      const board = await buildBoard(env, team.org, { name: 'Line One', cardIds: [card.id] });
      const now = env.clock.now();
      for (let i = 0; i < EVALUATIONS; i++) {
        const evaluation = await buildEvaluation(env, team.org, {
          board,
          card,
          user: team.evaluator,
          completedAt: now - i * 60_000,
          results: card.itemIds.map((itemId, position) => ({
            item_id: itemId,
            item_type: 'text' as const,
            position,
            content: `<p>Item ${position}</p>`,
            text_result: randomBytes(2250).toString('base64'),
          })),
        });
        if (i % 30 === 0) {
          await buildFeedback(env, team.org, {
            board,
            evaluation: { id: evaluation.id, card },
            user: team.evaluator,
          });
        }
      }
      actor = {
        kind: 'user',
        userId: team.owner.id,
        orgId: team.org.id,
        orgName: team.org.name,
        email: team.owner.email,
        role: 'owner',
        paid: true,
        sessionId: null,
        tokenId: null,
      };
    });

    /** A task as the server makes it: the owner, in editing mode (everyone's evaluations and feedback). */
    const task = (call: ExportCall, input: Record<string, unknown> = {}): ExportTask =>
      ({
        call,
        actor,
        input: call === 'getActionsExcel' ? input : { isEditing: true, ...input },
        now: env.clock.now(),
        appUrl: env.config.appUrl,
      }) as ExportTask;

    it('makes the same file as the server itself does, byte for byte, each export in turn on one worker', async () => {
      const workers = exportInWorkers(env.location);
      const here = exportInProcess(env.db);
      try {
        for (const call of ['getExcel', 'getFeedbackExcel', 'getActionsExcel'] as const) {
          const log = logSpy();
          const [fromWorker, fromHere] = await Promise.all([
            workers.run(task(call, { timeZone: 'Europe/London' }), asLog(log)),
            here(task(call, { timeZone: 'Europe/London' }), asLog(log)),
          ]);
          expect(fromWorker.file.filename).toBe(fromHere.file.filename);
          expect(fromWorker.file.contentType).toBe(fromHere.file.contentType);
          const [a, b] = await Promise.all([bytesOf(fromWorker.file.body), bytesOf(fromHere.file.body)]);
          expect(a.length).toBeGreaterThan(call === 'getExcel' ? 2_000_000 : 3_000);
          expect(a.equals(b)).toBe(true);
          expect(log.error).not.toHaveBeenCalled();
        }
        // One worker made all three, and waits for the next.
        expect(workers.alive).toBe(1);
        expect(workers.busy).toBe(0);

        // A refusal inside the export crosses back as the same AppError, before any file; the worker stays.
        await expect(
          workers.run(task('getExcel', { timeZone: 'Mars/Olympus_Mons' }), asLog(logSpy())),
        ).rejects.toMatchObject({
          name: 'AppError',
          code: 'BAD_REQUEST',
          errMsg: 'Unknown time zone.',
          errField: 'timeZone',
        });
        expect(workers.alive).toBe(1);
        expect(workers.busy).toBe(0);
      } finally {
        await workers.close();
      }
      expect(workers.alive).toBe(0);
    });

    it('runs exports at once in workers of their own, and ends a worker left idle', async () => {
      const workers = exportInWorkers(env.location);
      try {
        const files = await Promise.all([
          workers.run(task('getFeedbackExcel'), asLog(logSpy())),
          workers.run(task('getActionsExcel'), asLog(logSpy())),
        ]);
        expect(workers.alive).toBe(2);
        const sizes = await Promise.all(
          files.map(async (answer) => (await bytesOf(answer.file.body)).length),
        );
        expect(sizes).toEqual([expect.any(Number), expect.any(Number)]);
        expect(Math.min(...sizes)).toBeGreaterThan(3_000);
        expect(workers.busy).toBe(0);
        expect(workers.alive).toBe(2);
      } finally {
        await workers.close();
      }

      const brief = exportInWorkers(env.location, undefined, 200);
      try {
        const answer = await brief.run(task('getFeedbackExcel'), asLog(logSpy()));
        expect((await bytesOf(answer.file.body)).length).toBeGreaterThan(3_000);
        // It ends once it has waited 200 ms for another export.
        await vi.waitFor(() => expect(brief.alive).toBe(0), { timeout: 5_000, interval: 50 });
      } finally {
        await brief.close();
      }
    });

    it('holds the export while nobody reads, stops it when the download is dropped, then makes the next', async () => {
      const workers = exportInWorkers(env.location);
      const log = logSpy();
      try {
        const answer = await workers.run(task('getExcel'), asLog(log));
        const body = answer.file.body;
        // Nobody reads: a few chunks wait on this side, the worker waits for them to be taken.
        const held = await steady(() => body.readableLength);
        expect(held).toBeGreaterThan(0);
        expect(held).toBeLessThan(600_000);
        expect(workers.busy).toBe(1);
        body.destroy();
        await steady(() => workers.busy);
        expect(workers.busy).toBe(0);
        expect(log.error).not.toHaveBeenCalled();
        // The same worker makes the next export whole.
        const next = await workers.run(task('getExcel'), asLog(log));
        expect((await bytesOf(next.file.body)).length).toBeGreaterThan(2_000_000);
        expect(workers.alive).toBe(1);
        expect(log.error).not.toHaveBeenCalled();
      } finally {
        await workers.close();
      }
    });

    it('fits the largest batches the limits allow in the worker’s heap (100 long items, long answers)', async () => {
      const team = await buildTeam(env);
      const card = await buildCard(env, team.org, {
        name: 'Long card',
        items: Array.from({ length: MAX_ITEMS_PER_CARD }, () => ({ type: 'text' as const })),
      });
      const board = await buildBoard(env, team.org, { name: 'Long board', cardIds: [card.id] });
      // Two batches at once (the next is read while one is written), each item's content distinct.
      const count = EXPORT_BATCH * 2;
      for (let i = 0; i < count; i++) {
        const { id } = await buildEvaluation(env, team.org, { board, card, user: team.evaluator });
        const rows = card.itemIds.map((itemId, position) => ({
          org_id: team.org.id,
          evaluation_id: id,
          item_id: itemId,
          item_type: 'text' as const,
          position,
          content: `<p>${i}.${position} ${'long instruction '.repeat(CARD_ITEM_CONTENT_MAX / 17).slice(0, CARD_ITEM_CONTENT_MAX - 20)}</p>`,
          pass: null,
          text_result: randomBytes(3750).toString('base64'),
          numeric_result: null,
          na: 0 as const,
          note: randomBytes(750).toString('base64'),
        }));
        for (let at = 0; at < rows.length; at += 25) {
          await env.db
            .insertInto('results')
            .values(rows.slice(at, at + 25))
            .execute();
        }
      }
      const owner: UserActor = {
        ...actor,
        userId: team.owner.id,
        orgId: team.org.id,
        email: team.owner.email,
      };
      const workers = exportInWorkers(env.location);
      const log = logSpy();
      const answer = await workers.run({ ...task('getExcel'), actor: owner }, asLog(log));
      const file = await bytesOf(answer.file.body);
      const sheet = unzipped(file).get('xl/worksheets/sheet1.xml')!.data.toString('utf8');
      // The header and one row per result.
      expect(sheet.match(/<row /g)).toHaveLength(1 + count * MAX_ITEMS_PER_CARD);
      expect(log.error).not.toHaveBeenCalled();
      await workers.close();
    });

    it('ends a download with an error when its worker dies, and leaves the server serving', async () => {
      const workers = exportInWorkers(env.location);
      const answer = await workers.run(task('getExcel'), asLog(logSpy()));
      const failed = new Promise<Error>((resolve) => answer.file.body.on('error', resolve));
      answer.file.body.resume();
      await workers.close();
      expect((await failed).message).toMatch(/export worker ended/);

      // A worker whose heap limit is reached fails its export (logged); the next export is whole.
      const starved = exportInWorkers(env.location, {
        maxOldGenerationSizeMb: 1,
        maxYoungGenerationSizeMb: 1,
      });
      const log = logSpy();
      await expect(starved.run(task('getFeedbackExcel'), asLog(log))).rejects.toThrow();
      expect(log.error).toHaveBeenCalledWith(expect.anything(), 'Excel export worker failed');
      expect(starved.alive).toBe(0);
      const again = exportInWorkers(env.location);
      const whole = await again.run(task('getFeedbackExcel'), asLog(logSpy()));
      expect((await bytesOf(whole.file.body)).length).toBeGreaterThan(3_000);
      await again.close();
    });
  },
  { exportWorkers: true },
);
