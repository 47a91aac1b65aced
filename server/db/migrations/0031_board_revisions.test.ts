/**
 * Migration 0031 (docs/decisions/0784): a board's revision changes with every write that changes what the
 * board view answers, whoever makes it (the triggers see SQL alone), and with nothing else.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { nameKey } from '../../../common/validation.ts';
import { FakeClock } from '../../clock.ts';
import { TEST_DIALECTS, createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { buildBoard, buildCard, buildOrg, buildUser } from '../../test/factories.ts';
import { migrateToLatest } from '../migrate.ts';
import type { Db } from '../index.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`migration 0031: board revisions [${dialect}]`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    async function revisionOf(db: Db, boardId: number): Promise<string | null> {
      const row = await db
        .selectFrom('board_revisions')
        .select('revision')
        .where('board_id', '=', boardId)
        .executeTakeFirst();
      return row ? String(row.revision) : null;
    }

    /** Runs `write` and tells which of `boards` had their revision changed by it. */
    async function changedBy(db: Db, boards: number[], write: () => Promise<unknown>) {
      const before = await Promise.all(boards.map((id) => revisionOf(db, id)));
      await write();
      const after = await Promise.all(boards.map((id) => revisionOf(db, id)));
      return boards.filter((_, i) => after[i] !== before[i]);
    }

    it('gives the boards already there a revision', async () => {
      database = await createTestDatabase(dialect, { migrate: false });
      const { db } = database.database;
      await migrateToLatest(db, dialect, (name) => name < '0031');
      const env = { db, clock: new FakeClock() };
      const org = await buildOrg(env);
      const boards = [await buildBoard(env, org), await buildBoard(env, org)];

      await migrateToLatest(db, dialect);

      const revisions = await Promise.all(boards.map((b) => revisionOf(db, b.id)));
      expect(revisions.every((r) => r !== null && Number(r) >= 0 && Number(r) < 2 ** 53)).toBe(true);
      expect(revisions[0]).not.toBe(revisions[1]);
    });

    it('changes with every write the board view shows, and with nothing else', async () => {
      database = await createTestDatabase(dialect);
      const { db } = database.database;
      const clock = new FakeClock();
      const env = { db, clock };
      const org = await buildOrg(env);
      const user = await buildUser(env, org, { role: 'evaluator' });
      const card = await buildCard(env, org);
      const other = await buildCard(env, org);
      const board = await buildBoard(env, org, { cardIds: [card.id] });
      const elsewhere = await buildBoard(env, org, { cardIds: [card.id, other.id] });
      const both = [board.id, elsewhere.id];
      const now = clock.now();
      const evaluation = (on: { id: number; name: string }, completedAt: number | null) => ({
        org_id: org.id,
        board_id: on.id,
        card_id: card.id,
        user_id: user.id,
        anon_key_id: null,
        user_name: user.email,
        board_name: on.name,
        card_name: card.name,
        user_name_key: nameKey(user.email),
        board_name_key: nameKey(on.name),
        card_name_key: nameKey(card.name),
        pass: completedAt === null ? null : (1 as const),
        has_feedback: 0 as const,
        started_at: now - 60_000,
        completed_at: completedAt,
      });
      const insert = (rows: ReturnType<typeof evaluation>[]) =>
        db.insertInto('evaluations').values(rows).returning('id').execute();

      // An evaluation started, and changed while open: the board view lists completed ones only.
      let open = 0;
      expect(
        await changedBy(db, both, async () => {
          open = (await insert([evaluation(board, null)]))[0]!.id;
          await db
            .updateTable('evaluations')
            .set({ started_at: now - 1000 })
            .where('id', '=', open)
            .execute();
        }),
      ).toEqual([]);
      // Completed.
      expect(
        await changedBy(db, both, () =>
          db.updateTable('evaluations').set({ completed_at: now, pass: 0 }).where('id', '=', open).execute(),
        ),
      ).toEqual([board.id]);
      // Its feedback flag.
      expect(
        await changedBy(db, both, () =>
          db.updateTable('evaluations').set({ has_feedback: 1 }).where('id', '=', open).execute(),
        ),
      ).toEqual([board.id]);
      // Completed rows written at once on two boards (a seed, an import): each board's changes.
      expect(
        await changedBy(db, both, () =>
          insert([evaluation(board, now), evaluation(elsewhere, now), evaluation(elsewhere, now - 1)]),
        ),
      ).toEqual(both);
      // The evaluator removed: their evaluations lose their user id.
      const leaver = await buildUser(env, org, { role: 'evaluator' });
      await db
        .insertInto('evaluations')
        .values({ ...evaluation(elsewhere, now), user_id: leaver.id })
        .execute();
      expect(
        await changedBy(db, both, async () => {
          await db.deleteFrom('sessions').where('user_id', '=', leaver.id).execute();
          await db.deleteFrom('users').where('id', '=', leaver.id).execute();
        }),
      ).toEqual([elsewhere.id]);
      // Deleted.
      expect(
        await changedBy(db, both, () => db.deleteFrom('evaluations').where('id', '=', open).execute()),
      ).toEqual([board.id]);
      // A card put on a board, and taken off.
      expect(
        await changedBy(db, both, () =>
          db
            .insertInto('board_cards')
            .values({ org_id: org.id, board_id: board.id, card_id: other.id, created_at: now })
            .execute(),
        ),
      ).toEqual([board.id]);
      expect(
        await changedBy(db, both, () =>
          db
            .deleteFrom('board_cards')
            .where('board_id', '=', board.id)
            .where('card_id', '=', other.id)
            .execute(),
        ),
      ).toEqual([board.id]);
      // A card renamed: the evaluations keep the name they were made under; nothing the board view shows.
      expect(
        await changedBy(db, both, () =>
          db.updateTable('cards').set({ name: 'Renamed card' }).where('id', '=', other.id).execute(),
        ),
      ).toEqual([]);
      // A card deleted and brought back: every board it is on.
      expect(
        await changedBy(db, both, () =>
          db.updateTable('cards').set({ deleted_at: now }).where('id', '=', other.id).execute(),
        ),
      ).toEqual([elsewhere.id]);
      expect(
        await changedBy(db, both, () =>
          db.updateTable('cards').set({ deleted_at: null }).where('id', '=', other.id).execute(),
        ),
      ).toEqual([elsewhere.id]);

      // A board deleted with its evaluations takes its revision with it.
      await db.deleteFrom('evaluations').where('board_id', '=', board.id).execute();
      await db.deleteFrom('board_cards').where('board_id', '=', board.id).execute();
      await db.deleteFrom('boards').where('id', '=', board.id).execute();
      expect(await revisionOf(db, board.id)).toBeNull();
      expect(await revisionOf(db, elsewhere.id)).not.toBeNull();
    });
  });
}
