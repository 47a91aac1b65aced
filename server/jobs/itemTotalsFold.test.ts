/**
 * The fold of pending completions into item_totals (decision 0751): two processes folding the same pending
 * list at once count every evaluation once, in batches, merged by key; the timer folds what a completion
 * leaves; an idle fold writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEM_UNITS } from '../db/migrations/0027_item_totals.ts';
import { FOLD_BATCH } from '../modules/shared/itemCounts.ts';
import { TEST_DIALECTS } from '../test/databases.ts';
import { buildBoard, buildCard, buildEvaluation, buildTeam } from '../test/factories.ts';
import { twoInstances } from '../test/instances.ts';
import { foldAllItemTotals, startItemTotalsFold } from './itemTotalsFold.ts';

for (const dialect of TEST_DIALECTS) {
  describe(`item_totals fold [${dialect}]`, () => {
    let env: Awaited<ReturnType<typeof twoInstances>>;
    beforeAll(async () => {
      env = await twoInstances(dialect);
    });
    afterAll(async () => {
      await env?.close();
    });
    // The second process's connection. On SQLite both apps here share one thread, where a connection waiting
    // for the other's write lock blocks the thread that would release it; the first connection stands in
    // (its transactions run one at a time, as SQLite's writers do). Real processes: two-instances.test.ts.
    const db = (i: number) => env.apps[dialect === 'sqlite' ? 0 : i]!.services.db;
    const pending = async () =>
      Number(
        (
          await env.db
            .selectFrom('item_totals_pending')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    async function setup() {
      const team = await buildTeam({ db: env.db, clock: env.clock });
      const card = await buildCard({ db: env.db, clock: env.clock }, team.org, {
        items: [
          { type: 'pass_fail', content: '<p>Guards</p>' },
          { type: 'pass_fail', content: '<p>Floor</p>' },
        ],
      });
      const board = await buildBoard({ db: env.db, clock: env.clock }, team.org, { cardIds: [card.id] });
      return { team, card, board };
    }

    async function complete(setupDone: Awaited<ReturnType<typeof setup>>, count: number, at: number) {
      const { team, card, board } = setupDone;
      for (let i = 0; i < count; i++) {
        await buildEvaluation({ db: env.db, clock: env.clock }, team.org, {
          board,
          card,
          user: team.evaluator,
          completedAt: at + i,
          pending: true,
          results: card.itemIds.map((item_id, position) => ({
            item_id,
            item_type: 'pass_fail' as const,
            position,
            content: 'Check',
            pass: i % 4 !== 0,
          })),
        });
      }
    }

    /** Each (board, item, unit) key's sums over its rows (shards), for the organisation. */
    async function sums(orgId: number) {
      const rows = await env.db
        .selectFrom('item_totals')
        .select(['board_id', 'item_id', 'unit'])
        .select((eb) => [
          eb.fn.sum<number>('passed').as('passed'),
          eb.fn.sum<number>('failed').as('failed'),
          eb.fn.sum<number>('answers').as('answers'),
          eb.fn.countAll<number>().as('rows'),
        ])
        .where('org_id', '=', orgId)
        .groupBy(['board_id', 'item_id', 'unit'])
        .orderBy('board_id')
        .orderBy('item_id')
        .orderBy('unit')
        .execute();
      return rows.map((r) => ({
        key: `${r.board_id}/${r.item_id}/${r.unit}`,
        passed: Number(r.passed),
        failed: Number(r.failed),
        answers: Number(r.answers),
        rows: Number(r.rows),
      }));
    }

    it('counts every pending evaluation once when two processes fold at once, a batch merged into a row per key', async () => {
      const s = await setup();
      const total = 2 * FOLD_BATCH[dialect] + 37;
      // All within one quarter-hour: one slot at every unit.
      await complete(s, total, Date.parse('2026-04-01T08:00:00Z'));
      expect(await pending()).toBe(total);
      const [a, b] = await Promise.all([foldAllItemTotals(db(0)), foldAllItemTotals(db(1))]);
      // Whatever one left (the other held its batch), a last fold takes.
      const c = await foldAllItemTotals(db(0));
      expect(a + b + c).toBe(total);
      expect(await pending()).toBe(0);
      const got = await sums(s.team.org.id);
      const failed = Math.ceil(total / 4);
      expect(got.map(({ rows: _rows, ...rest }) => rest)).toEqual(
        [0, s.board.id].flatMap((board) =>
          s.card.itemIds.flatMap((item) =>
            ITEM_UNITS.map((_, unit) => ({
              key: `${board}/${item}/${unit}`,
              passed: total - failed,
              failed,
              answers: total,
            })),
          ),
        ),
      );
      // A row per key per batch at most (not per evaluation).
      for (const key of got) expect(key.rows).toBeLessThanOrEqual(Math.ceil(total / FOLD_BATCH[dialect]));
      // Nothing left: a fold finds nothing and writes nothing.
      expect(await foldAllItemTotals(db(1))).toBe(0);
      expect(await sums(s.team.org.id)).toEqual(got);
    });

    it('folds a completion on its timer, and stops when told', async () => {
      const s = await setup();
      const stop = startItemTotalsFold(db(1), env.apps[1]!.app.log, 20);
      try {
        await complete(s, 3, Date.parse('2026-04-02T08:00:00Z'));
        const deadline = Date.now() + 5_000;
        while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(await pending()).toBe(0);
        expect((await sums(s.team.org.id)).map((k) => k.answers)).toEqual(Array(16).fill(3));
      } finally {
        stop();
      }
      await complete(s, 1, Date.parse('2026-04-02T09:00:00Z'));
      // Stopped: the next completion stays pending for another process's fold.
      await new Promise((r) => setTimeout(r, 100));
      expect(await pending()).toBe(1);
      expect(await foldAllItemTotals(db(0))).toBe(1);
    });
  });
}
