/**
 * Migration 0032 (docs/decisions/0786): a board's revision of a UTC day changes with every write of a
 * completed evaluation of that board and day, whoever makes it, and with nothing else; the board's own
 * revision (migration 0031) still changes with each of them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock.ts';
import { TEST_DIALECTS, createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { buildBoard, buildCard, buildEvaluation, buildOrg, buildUser } from '../../test/factories.ts';
import type { Db } from '../index.ts';

const DAY = 24 * 60 * 60_000;

for (const dialect of TEST_DIALECTS) {
  describe(`migration 0032: board day revisions [${dialect}]`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    /** Every (board, day) revision, and every board's revision. */
    async function revisions(db: Db) {
      const days = await db
        .selectFrom('board_day_revisions')
        .select(['board_id', 'day', 'revision'])
        .execute();
      const boards = await db.selectFrom('board_revisions').select(['board_id', 'revision']).execute();
      return {
        days: new Map(days.map((r) => [`${r.board_id}:${r.day}`, String(r.revision)])),
        boards: new Map(boards.map((r) => [Number(r.board_id), String(r.revision)])),
      };
    }

    /** Runs `write`; tells the (board, day) keys whose revision changed or appeared, and the boards'. */
    async function changedBy(db: Db, write: () => Promise<unknown>) {
      const before = await revisions(db);
      await write();
      const after = await revisions(db);
      const days = [...after.days].filter(([key, r]) => before.days.get(key) !== r).map(([key]) => key);
      const gone = [...before.days.keys()].filter((key) => !after.days.has(key));
      const boards = [...after.boards].filter(([id, r]) => before.boards.get(id) !== r).map(([id]) => id);
      return { days: days.sort(), gone, boards: boards.sort((a, b) => a - b) };
    }

    it('changes the days of each completed evaluation written, changed or deleted, and nothing else', async () => {
      database = await createTestDatabase(dialect);
      const { db } = database.database;
      const clock = new FakeClock();
      const env = { db, clock };
      const org = await buildOrg(env);
      const user = await buildUser(env, org, { role: 'evaluator' });
      const card = await buildCard(env, org);
      const other = await buildCard(env, org);
      const board = await buildBoard(env, org, { cardIds: [card.id] });
      const elsewhere = await buildBoard(env, org, { cardIds: [card.id] });
      const now = clock.now();
      const today = Math.floor(now / DAY);
      const at = (b: { id: number }, day: number) => `${b.id}:${day}`;
      const evaluate = (b: typeof board, completedAt: number | null) =>
        buildEvaluation(env, org, { board: b, card, user, completedAt, startedAt: now - 10 * DAY });

      // A start changes nothing; its completion, its board and its day.
      let open = 0;
      expect(await changedBy(db, async () => (open = (await evaluate(board, null)).id))).toEqual({
        days: [],
        gone: [],
        boards: [],
      });
      expect(
        await changedBy(db, () =>
          db.updateTable('evaluations').set({ completed_at: now, pass: 1 }).where('id', '=', open).execute(),
        ),
      ).toEqual({ days: [at(board, today)], gone: [], boards: [board.id] });

      // A completion of a day before (a device's time): that day, not today.
      expect(await changedBy(db, () => evaluate(board, now - 3 * DAY))).toEqual({
        days: [at(board, today - 3)],
        gone: [],
        boards: [board.id],
      });
      // Its feedback flag: its day.
      expect(
        await changedBy(db, () =>
          db.updateTable('evaluations').set({ has_feedback: 1 }).where('id', '=', open).execute(),
        ),
      ).toEqual({ days: [at(board, today)], gone: [], boards: [board.id] });
      // Moved to another day, then to another board: the days it left and the day it came to.
      expect(
        await changedBy(db, () =>
          db
            .updateTable('evaluations')
            .set({ completed_at: now - 5 * DAY })
            .where('id', '=', open)
            .execute(),
        ),
      ).toEqual({ days: [at(board, today - 5), at(board, today)].sort(), gone: [], boards: [board.id] });
      expect(
        await changedBy(db, () =>
          db.updateTable('evaluations').set({ board_id: elsewhere.id }).where('id', '=', open).execute(),
        ),
      ).toEqual({
        days: [at(board, today - 5), at(elsewhere, today - 5)].sort(),
        gone: [],
        boards: [board.id, elsewhere.id],
      });
      // Deleted many at once, on two boards and several days: each (board, day) they were on.
      await evaluate(board, now - 1 * DAY);
      await evaluate(board, now - 1 * DAY + 1000);
      expect(
        await changedBy(db, () =>
          db
            .deleteFrom('evaluations')
            .where('org_id', '=', org.id)
            .where('completed_at', '>=', now - 5 * DAY)
            .execute(),
        ),
      ).toEqual({
        days: [at(board, today - 1), at(board, today - 3), at(elsewhere, today - 5)].sort(),
        gone: [],
        boards: [board.id, elsewhere.id],
      });
      // An open evaluation deleted: nothing.
      const started = await evaluate(board, null);
      expect(
        await changedBy(db, () => db.deleteFrom('evaluations').where('id', '=', started.id).execute()),
      ).toEqual({ days: [], gone: [], boards: [] });
      // Cards put on and taken off, deleted: the board's revision (migration 0031), no day's.
      const cardWrites = await changedBy(db, async () => {
        await db
          .insertInto('board_cards')
          .values({ org_id: org.id, board_id: board.id, card_id: other.id, created_at: now })
          .execute();
        await db.updateTable('cards').set({ deleted_at: now }).where('id', '=', other.id).execute();
      });
      expect(cardWrites).toEqual({ days: [], gone: [], boards: [board.id] });

      // A board deleted takes its days with it; the other board keeps its own.
      await db.deleteFrom('evaluations').where('board_id', '=', board.id).execute();
      await db.deleteFrom('board_cards').where('board_id', '=', board.id).execute();
      const deleted = await changedBy(db, () => db.deleteFrom('boards').where('id', '=', board.id).execute());
      expect(deleted.gone.sort()).toEqual(
        [at(board, today), at(board, today - 1), at(board, today - 3), at(board, today - 5)].sort(),
      );
      expect((await revisions(db)).days.has(at(elsewhere, today - 5))).toBe(true);
    });
  });
}
