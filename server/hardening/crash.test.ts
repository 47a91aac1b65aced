/**
 * Issue 10, crash: the server killed with SIGKILL while 200 writes (add-results, add-feedback) are in
 * flight loses none it acknowledged and leaves none half-written, on SQLite and PostgreSQL. Each round
 * starts the real server process, sends the writes, kills it once some are answered, and starts it
 * again on the same database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../clock.ts';
import type { DialectName } from '../db/dialect.ts';
import { openDatabase, type Database } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createTestDatabase, TEST_DIALECTS } from '../test/databases.ts';
import { buildBoard, buildCard, buildEvaluation, buildTeam } from '../test/factories.ts';
import { callOver, startServer, type ServerProcess } from '../test/processes.ts';

const PORT: Record<DialectName, number> = { sqlite: 4405, postgres: 4406 };
const ROUNDS = 3;
const RESULTS_IN_FLIGHT = 150;
const FEEDBACK_IN_FLIGHT = 50;
/** Killed once this many writes have been answered: the rest are in flight or not yet sent. */
const KILL_AFTER_ANSWERS = 25;

for (const dialect of TEST_DIALECTS) {
  describe(`kill -9 under concurrent writes [${dialect}]`, () => {
    let database: Database;
    let location: string;
    let cleanup: () => Promise<void>;
    let server: ServerProcess | undefined;
    beforeAll(async () => {
      if (dialect === 'sqlite') {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'cb-crash-'));
        location = path.join(dir, 'db.sqlite');
        database = openDatabase({ kind: 'sqlite', file: location });
        await migrateToLatest(database.db, 'sqlite');
        cleanup = async () => {
          await database.close();
          rmSync(dir, { recursive: true, force: true });
        };
      } else {
        const created = await createTestDatabase('postgres');
        database = created.database;
        location = created.location;
        cleanup = () => created.drop();
      }
    });
    afterAll(async () => {
      await server?.stop();
      await cleanup?.();
    });

    const start = () =>
      startServer(PORT[dialect], {
        DATABASE_URL: dialect === 'sqlite' ? `sqlite:${location}` : location,
        SESSION_SECRET: 'crash-test-secret-0123456789abcdef0123',
        LOG_LEVEL: 'warn',
      });

    it(`loses no acknowledged write and half-writes none, over ${ROUNDS} kills`, async () => {
      const env = { db: database.db, clock: new FakeClock(Date.now()) };
      const team = await buildTeam(env);
      const card = await buildCard(env, team.org);
      const board = await buildBoard(env, team.org, { cardIds: [card.id] });
      const cookie = team.evaluator.cookie;
      const results = [
        { item_id: card.itemIds[1]!, pass: true },
        { item_id: card.itemIds[2]!, na: true },
      ];
      const acknowledged = { evaluations: [] as number[], feedback: new Map<number, string>() };
      let interrupted = 0;
      server = await start();

      for (let round = 0; round < ROUNDS; round++) {
        const open: number[] = [];
        for (let i = 0; i < RESULTS_IN_FLIGHT; i++) {
          const started = await buildEvaluation(env, team.org, {
            board,
            card,
            user: team.evaluator,
            completedAt: null,
          });
          open.push(started.id);
        }
        let answered = 0;
        let killed: Promise<void> | null = null;
        const settle = <T>(write: Promise<{ status: number } & T>) =>
          write.then(
            (answer) => {
              if (++answered === KILL_AFTER_ANSWERS) killed = server!.kill();
              return answer;
            },
            () => null,
          );
        const completing = open.map((evalID) =>
          settle(callOver(server!.url, 'addResults', { evalID, results }, { cookie })).then((answer) => {
            if (answer?.status === 200) acknowledged.evaluations.push(evalID);
            else interrupted += 1;
          }),
        );
        const commenting = Array.from({ length: FEEDBACK_IN_FLIGHT }, (_, i) => {
          const content = `<p>Round ${round} note ${i}</p>`;
          return settle(
            callOver(server!.url, 'addFeedback', { boardID: board.id, content }, { cookie }),
          ).then((answer) => {
            if (answer?.status === 200) acknowledged.feedback.set(answer.body.id, content);
            else interrupted += 1;
          });
        });
        await Promise.all([...completing, ...commenting]);
        await killed;
        expect(server.child.signalCode).toBe('SIGKILL');
        server = await start();
      }
      // The kills did land among the writes: some were answered, some were cut off.
      expect(acknowledged.evaluations.length + acknowledged.feedback.size).toBeGreaterThanOrEqual(
        ROUNDS * KILL_AFTER_ANSWERS,
      );
      expect(interrupted).toBeGreaterThan(0);

      const { db } = database;
      const completed = await db
        .selectFrom('evaluations')
        .select(['id', 'pass'])
        .where('org_id', '=', team.org.id)
        .where('completed_at', 'is not', null)
        .execute();
      const completedIds = new Set(completed.map((e) => e.id));
      for (const id of acknowledged.evaluations) expect(completedIds.has(id), `evaluation ${id}`).toBe(true);
      // Every completed evaluation has all its results and is counted in the analytics totals, once.
      const resultCounts = await db
        .selectFrom('results')
        .select((eb) => ['evaluation_id', eb.fn.countAll<number>().as('count')])
        .where('org_id', '=', team.org.id)
        .groupBy('evaluation_id')
        .execute();
      const resultsOf = new Map(resultCounts.map((r) => [r.evaluation_id, Number(r.count)]));
      for (const { id, pass } of completed) {
        expect(resultsOf.get(id), `results of evaluation ${id}`).toBe(card.itemIds.length);
        expect(pass).toBe(1);
      }
      expect(resultCounts.every((r) => completedIds.has(r.evaluation_id))).toBe(true);
      const totals = await db
        .selectFrom('evaluation_counts')
        .select((eb) => eb.fn.sum<number>('passed').as('passed'))
        .where('org_id', '=', team.org.id)
        .where('board_id', '=', 0)
        .where('card_id', '=', 0)
        .executeTakeFirstOrThrow();
      expect(Number(totals.passed)).toBe(completed.length);

      const feedback = await db
        .selectFrom('feedback')
        .select(['id', 'content'])
        .where('org_id', '=', team.org.id)
        .execute();
      const stored = new Map(feedback.map((f) => [f.id, f.content]));
      for (const [id, content] of acknowledged.feedback) expect(stored.get(id)).toBe(content);

      // The restarted server answers from what survived.
      const one = acknowledged.evaluations[0]!;
      const read = await callOver(server.url, 'getEvaluation', { evalID: one }, { cookie });
      expect(read).toMatchObject({ status: 200 });
    }, 120_000);
  });
}
