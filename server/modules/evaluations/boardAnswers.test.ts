/**
 * The board view's kept answers (decision 0784): a member's get-evaluations is answered from the answer kept
 * at the board's revision, each member seeing their own evaluations as theirs; every write that changes the
 * answer is seen at once, by this server and by another one on the same database (a second process, its own
 * kept answers).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/index.ts';
import { buildBoard, buildCard, buildEvaluation, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase } from '../../test/harness.ts';
import { userCaller } from '../shared/caller.ts';
import { boardAnswersOf } from '../shared/boardAnswers.ts';
import { COUNTER_SHARDS } from '../shared/evaluationCounts.ts';
import { boardEvaluations, type BoardEvaluations } from '../shared/evaluations.ts';

const DAY = 24 * 60 * 60_000;
/** Statements that read the board's evaluations, as the suite's server sends them. */
const evaluationReads: string[] = [];

describeEachDatabase(
  'get-evaluations: kept answers',
  (env) => {
    /** A second server process on the same database: its own connections and its own kept answers. */
    let other: Database;
    beforeAll(() => {
      other = openDatabase(env.location);
    });
    afterAll(async () => {
      await other?.close();
    });

    async function setup() {
      const team = await buildTeam(env);
      const card = await buildCard(env, team.org);
      const spare = await buildCard(env, team.org);
      const board = await buildBoard(env, team.org, { cardIds: [card.id, spare.id] });
      return { team, card, spare, board };
    }
    type Setup = Awaited<ReturnType<typeof setup>>;
    const since = () => new Date(env.clock.now() - 20 * DAY).toISOString();

    async function view(s: Setup, cookie: string, timeZone?: string) {
      const answer = await call(
        env,
        'getEvaluations',
        { boardID: s.board.id, startDateTime: since(), ...(timeZone ? { timeZone } : {}) },
        { cookie },
      );
      expect(answer.status).toBe(200);
      return answer.body as BoardEvaluations;
    }

    /** The caller a member's call makes. */
    const callerOf = (s: Setup, user: Setup['team']['admin']) =>
      userCaller({
        kind: 'user',
        userId: user.id,
        orgId: s.team.org.id,
        orgName: s.team.org.name,
        email: user.email,
        role: user.role,
        paid: true,
        sessionId: null,
        tokenId: null,
      });
    const input = (s: Setup, timeZone?: string) => ({
      boardId: s.board.id,
      since: Date.parse(since()),
      ...(timeZone ? { timeZone } : {}),
    });

    /** The answer the other process gives the member. */
    async function viewElsewhere(s: Setup, user: Setup['team']['admin'], timeZone?: string) {
      const written = await boardEvaluations(
        other.db,
        callerOf(s, user),
        input(s, timeZone),
        env.clock.now(),
      );
      return written.parse();
    }

    /** The answer read afresh: in a transaction nothing is kept or served from what is kept. */
    async function fresh(s: Setup, user: Setup['team']['admin'], timeZone?: string) {
      return env.db.transaction().execute(async (trx) => {
        const written = await boardEvaluations(trx, callerOf(s, user), input(s, timeZone), env.clock.now());
        return written.parse();
      });
    }

    async function completeOne(s: Setup, cookie: string, card = s.card) {
      const started = await call(env, 'addEvaluation', { boardID: s.board.id, cardID: card.id }, { cookie });
      expect(started.status).toBe(200);
      const items = await env.db
        .selectFrom('card_items')
        .select(['id', 'type'])
        .where('card_id', '=', card.id)
        .orderBy('position')
        .execute();
      const results = items
        .filter((item) => item.type === 'pass_fail')
        .map((item) => ({ item_id: item.id, pass: true }));
      const done = await call(env, 'addResults', { evalID: started.body.id, results }, { cookie });
      expect(done.status).toBe(200);
      return started.body.id as number;
    }

    it("answers a member from the kept answer, each member's own evaluations marked as theirs", async () => {
      const s = await setup();
      const mine = await completeOne(s, s.team.evaluator.cookie);
      const theirs = await completeOne(s, s.team.admin.cookie);

      evaluationReads.length = 0;
      const evaluator = await view(s, s.team.evaluator.cookie);
      expect(evaluationReads.length).toBeGreaterThan(0);
      const own = (answer: BoardEvaluations) =>
        Object.fromEntries(answer.evaluations.map((e) => [e.ID, e.isUsers]));
      expect(own(evaluator)).toEqual({ [mine]: true, [theirs]: false });

      // Kept: the next members' calls read the board and its revision, and no evaluation.
      evaluationReads.length = 0;
      const admin = await view(s, s.team.admin.cookie);
      const viewer = await view(s, s.team.viewer.cookie);
      const again = await view(s, s.team.evaluator.cookie);
      expect(evaluationReads).toEqual([]);
      expect(own(admin)).toEqual({ [mine]: false, [theirs]: true });
      expect(own(viewer)).toEqual({ [mine]: false, [theirs]: false });
      expect(again).toEqual(evaluator);
      // Exactly what reading afresh gives each of them.
      expect(admin).toEqual(await fresh(s, s.team.admin));
      expect(viewer).toEqual(await fresh(s, s.team.viewer));
      expect(evaluator).toEqual(await fresh(s, s.team.evaluator));
      expect(boardAnswersOf(env.db).stats.entries).toBeGreaterThan(0);
    });

    it('sees every write that changes the answer at once, on this server and on another', async () => {
      const s = await setup();
      await completeOne(s, s.team.evaluator.cookie);
      const check = async (what: string) => {
        const here = await view(s, s.team.admin.cookie);
        const there = await viewElsewhere(s, s.team.admin);
        const truth = await fresh(s, s.team.admin);
        expect(here, what).toEqual(truth);
        expect(there, what).toEqual(truth);
        return truth;
      };
      const before = await check('kept by both');

      // Starting an evaluation changes nothing the board shows: still kept.
      const started = await call(
        env,
        'addEvaluation',
        { boardID: s.board.id, cardID: s.card.id },
        { cookie: s.team.admin.cookie },
      );
      expect(started.status).toBe(200);
      evaluationReads.length = 0;
      expect(await view(s, s.team.admin.cookie)).toEqual(before);
      expect(evaluationReads).toEqual([]);

      const second = await completeOne(s, s.team.admin.cookie);
      const afterCompletion = await check('a completion');
      expect(afterCompletion.evaluations.map((e) => e.ID)).toContain(second);

      const feedback = await call(
        env,
        'addFeedback',
        { evaluationID: second, boardID: s.board.id, content: 'Guard was loose' },
        { cookie: s.team.admin.cookie },
      );
      expect(feedback.status).toBe(200);
      const afterFeedback = await check('feedback on an evaluation');
      expect(afterFeedback.evaluations.find((e) => e.ID === second)?.hasFeedback).toBe(true);

      // The spare card has no evaluation: the card's last 3 reach back for it; deleting it takes it away.
      const old = await completeOne(s, s.team.admin.cookie, s.spare);
      // Kept by both at the completion's revision, so that the change below is the SQL's alone.
      await check('the spare card evaluated');
      await env.db
        .updateTable('evaluations')
        .set({ completed_at: env.clock.now() - 60 * DAY, started_at: env.clock.now() - 60 * DAY - 1000 })
        .where('id', '=', old)
        .execute();
      expect((await check('an evaluation changed by SQL alone')).evaluations.map((e) => e.ID)).toContain(old);
      const deleted = await call(env, 'deleteCard', { id: s.spare.id }, { cookie: s.team.admin.cookie });
      expect(deleted.status).toBe(200);
      expect((await check('a card deleted')).evaluations.map((e) => e.ID)).not.toContain(old);

      const removed = await call(
        env,
        'deleteEvaluation',
        { evalID: second },
        { cookie: s.team.admin.cookie },
      );
      expect(removed.status).toBe(200);
      expect((await check('an evaluation deleted')).evaluations.map((e) => e.ID)).not.toContain(second);
    });

    /** Evaluations on both cards over the last `days` days, 1 to 5 a day, some failing, by two members. */
    async function history(s: Setup, days: number) {
      const now = env.clock.now();
      const ids: number[] = [];
      for (let d = days; d >= 1; d--)
        for (let k = 0; k < 1 + (d % 5); k++) {
          const row = await buildEvaluation(env, s.team.org, {
            board: s.board,
            card: k % 2 ? s.spare : s.card,
            user: k % 3 ? s.team.evaluator : s.team.admin,
            completedAt: now - d * DAY - k * 60_000,
            pass: (d + k) % 4 !== 0,
          });
          ids.push(row.id);
        }
      return ids;
    }

    it("writes a changed board's answer from the rows of the days changed since, and the older ones as kept", async () => {
      const s = await setup();
      const ids = await history(s, 15);
      expect(await view(s, s.team.admin.cookie)).toEqual(await fresh(s, s.team.admin));
      // A row of ten days ago changed with its day's revision put back as it was, as though no trigger had
      // seen it; then a completion today.
      const now = env.clock.now();
      const old = await env.db
        .selectFrom('evaluations')
        .select(['id', 'completed_at'])
        .where('id', 'in', ids)
        .where('completed_at', '<=', now - 10 * DAY)
        .where('completed_at', '>', now - 11 * DAY)
        .executeTakeFirstOrThrow();
      const day = Math.floor(old.completed_at! / DAY);
      const dayRevision = () =>
        env.db
          .selectFrom('board_day_revisions')
          .select('revision')
          .where('board_id', '=', s.board.id)
          .where('day', '=', day)
          .executeTakeFirstOrThrow();
      const { revision } = await dayRevision();
      await env.db.updateTable('evaluations').set({ has_feedback: 1 }).where('id', '=', old.id).execute();
      expect((await dayRevision()).revision).not.toEqual(revision);
      await env.db
        .updateTable('board_day_revisions')
        .set({ revision })
        .where('board_id', '=', s.board.id)
        .where('day', '=', day)
        .execute();
      const today = await completeOne(s, s.team.evaluator.cookie);

      const here = await view(s, s.team.admin.cookie);
      const truth = await fresh(s, s.team.admin);
      expect(truth.evaluations.find((e) => e.ID === old.id)?.hasFeedback).toBe(true);
      // Today's day was read again; the older row is the one kept, not read again.
      expect(here.evaluations.map((e) => e.ID)).toContain(today);
      expect(here).toEqual({
        ...truth,
        evaluations: truth.evaluations.map((e) => (e.ID === old.id ? { ...e, hasFeedback: false } : e)),
      });
      // Its day changed as the triggers change it: read again, here and on the other server.
      await env.db.updateTable('evaluations').set({ has_feedback: 1 }).where('id', '=', old.id).execute();
      expect(await view(s, s.team.admin.cookie)).toEqual(await fresh(s, s.team.admin));
      expect(await viewElsewhere(s, s.team.admin)).toEqual(await fresh(s, s.team.admin));
    });

    it('reads the window afresh when a kept row comes to be listed: its local day reaches into a changed UTC day', async () => {
      const s = await setup();
      const zone = 'America/New_York';
      // A New York day runs from 05:00 UTC to 05:00 the next UTC day in winter (04:00 in summer): the hours 18
      // to 27 from a UTC day's start fall in one New York day either way, two in its first UTC day and three
      // in its second.
      const utcDay = Math.floor((env.clock.now() - 5 * DAY) / DAY) * DAY;
      const at = (hours: number) => utcDay + hours * 60 * 60_000;
      const evaluate = async (hours: number) =>
        (
          await buildEvaluation(env, s.team.org, {
            board: s.board,
            card: s.card,
            user: s.team.evaluator,
            completedAt: at(hours),
            pass: hours % 2 === 0,
          })
        ).id;
      const early = [await evaluate(18), await evaluate(20)];
      const late = [await evaluate(25), await evaluate(26), await evaluate(27)];
      const first = await view(s, s.team.admin.cookie, zone);
      expect(first).toEqual(await fresh(s, s.team.admin, zone));
      // The day's last three, all of its second UTC day; the day's total counts the first two.
      expect(first.evaluations.map((e) => e.ID)).toEqual(expect.arrayContaining(late));
      expect(first.evaluations.map((e) => e.ID)).not.toContain(early[1]);

      // One of the three deleted: its UTC day's rows are read again, and the later of the first day's two,
      // kept without its JSON, is now one of the day's last three.
      await env.db.deleteFrom('evaluations').where('id', '=', late[0]!).execute();
      const truth = await fresh(s, s.team.admin, zone);
      expect(truth.evaluations.map((e) => e.ID)).toContain(early[1]);
      expect(await view(s, s.team.admin.cookie, zone)).toEqual(truth);
      expect(await view(s, s.team.evaluator.cookie, zone)).toEqual(await fresh(s, s.team.evaluator, zone));
      expect(await viewElsewhere(s, s.team.admin, zone)).toEqual(truth);
    });

    it.each([
      ['UTC', undefined],
      ['a zone whose days straddle two UTC days', 'America/New_York'],
    ])(
      'answers what reading afresh answers after any sequence of writes, on this server and on another (%s)',
      async (_, zone) => {
        const s = await setup();
        const ids = await history(s, 24);
        const members = [s.team.admin, s.team.evaluator, s.team.viewer];
        // A seeded sequence (the same every run): x_{n+1} = 48271 x_n mod 2^31 - 1.
        let seed = 20261129;
        const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
        const now = env.clock.now();
        const pick = () => ids[random(ids.length)]!;
        const writes: [string, () => Promise<unknown>][] = [
          ['a completion today', async () => ids.push(await completeOne(s, s.team.evaluator.cookie))],
          [
            'a completion of an earlier day (a device’s time)',
            async () =>
              ids.push(
                (
                  await buildEvaluation(env, s.team.org, {
                    board: s.board,
                    card: random(2) ? s.card : s.spare,
                    user: s.team.admin,
                    completedAt: now - random(40) * DAY - random(DAY),
                    pass: random(2) === 0,
                  })
                ).id,
              ),
          ],
          [
            'feedback flag',
            () =>
              env.db.updateTable('evaluations').set({ has_feedback: 1 }).where('id', '=', pick()).execute(),
          ],
          [
            'moved to another day',
            () =>
              env.db
                .updateTable('evaluations')
                .set({ completed_at: now - random(30) * DAY - random(DAY) })
                .where('id', '=', pick())
                .execute(),
          ],
          ['deleted', () => env.db.deleteFrom('evaluations').where('id', '=', pick()).execute()],
          [
            'the spare card taken off, or put back',
            async () => {
              const on = await env.db
                .deleteFrom('board_cards')
                .where('board_id', '=', s.board.id)
                .where('card_id', '=', s.spare.id)
                .executeTakeFirst();
              if (Number(on.numDeletedRows) === 0)
                await env.db
                  .insertInto('board_cards')
                  .values({
                    org_id: s.team.org.id,
                    board_id: s.board.id,
                    card_id: s.spare.id,
                    created_at: now,
                  })
                  .execute();
            },
          ],
        ];
        for (let step = 0; step < 30; step++) {
          const [what, write] = writes[random(writes.length)]!;
          await write();
          const member = members[random(members.length)]!;
          const truth = await fresh(s, member, zone);
          expect(await view(s, member.cookie, zone), `step ${step}: ${what}`).toEqual(truth);
          if (step % 3 === 0)
            expect(await viewElsewhere(s, member, zone), `step ${step}: ${what}`).toEqual(truth);
        }
      },
    );

    it('keeps no answer for a start older than the window (moved to the window, a new instant at every call)', async () => {
      const s = await setup();
      await completeOne(s, s.team.evaluator.cookie);
      const before = boardAnswersOf(env.db).stats.entries;
      const answer = await call(
        env,
        'getEvaluations',
        { boardID: s.board.id, startDateTime: new Date(env.clock.now() - 200 * DAY).toISOString() },
        { cookie: s.team.admin.cookie },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.evaluations).toHaveLength(1);
      expect(boardAnswersOf(env.db).stats.entries).toBe(before);
    });

    it('lets writers of the same boards run at once without waiting on each other in opposite orders', async () => {
      const s = await setup();
      const other = await buildBoard(env, s.team.org);
      const admin = { cookie: s.team.admin.cookie };
      // The spare card on the other board only.
      const spareMoved = await call(
        env,
        'syncCardBoards',
        { cardID: s.spare.id, boardIDs: [other.id] },
        admin,
      );
      expect(spareMoved.status).toBe(200);
      for (let round = 0; round < 12; round++) {
        // A completion and a deletion of another evaluation of the same board, completed today and counted in
        // the same shard of the day's counters: each takes the board's revision and the same counters' rows.
        const start = async () => {
          const started = await call(env, 'addEvaluation', { boardID: s.board.id, cardID: s.card.id }, admin);
          expect(started.status).toBe(200);
          return started.body.id as number;
        };
        const toComplete = await start();
        let toDelete = await start();
        while (toDelete % COUNTER_SHARDS !== toComplete % COUNTER_SHARDS) toDelete = await start();
        const results = (
          await env.db
            .selectFrom('card_items')
            .select(['id', 'type'])
            .where('card_id', '=', s.card.id)
            .execute()
        )
          .filter((item) => item.type === 'pass_fail')
          .map((item) => ({ item_id: item.id, pass: round % 2 === 0 }));
        expect((await call(env, 'addResults', { evalID: toDelete, results }, admin)).status).toBe(200);
        const [completed, deleted] = await Promise.all([
          call(env, 'addResults', { evalID: toComplete, results }, admin),
          call(env, 'deleteEvaluation', { evalID: toDelete }, admin),
        ]);
        expect([completed.status, deleted.status]).toEqual([200, 200]);
        // Two cards moved between two boards in opposite directions at once: the card from the board to the
        // other one and the spare back, then the other way round.
        for (const [to, from] of [
          [other.id, s.board.id],
          [s.board.id, other.id],
        ]) {
          const moved = await Promise.all([
            call(env, 'syncCardBoards', { cardID: s.card.id, boardIDs: [to!] }, admin),
            call(env, 'syncCardBoards', { cardID: s.spare.id, boardIDs: [from!] }, admin),
          ]);
          expect(moved.map((answer) => answer.status)).toEqual([200, 200]);
        }
      }
      expect(await view(s, s.team.admin.cookie)).toEqual(await fresh(s, s.team.admin));
    });

    it("keeps another organisation's board out: not found, with the same id kept for its own organisation", async () => {
      const s = await setup();
      await completeOne(s, s.team.evaluator.cookie);
      await view(s, s.team.admin.cookie);
      const stranger = await buildTeam(env);
      const answer = await call(
        env,
        'getEvaluations',
        { boardID: s.board.id, startDateTime: since() },
        { cookie: stranger.admin.cookie },
      );
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ errMsg: 'The board was not found.' });
    });
  },
  {
    // A SQLite file, so that a second process can open the same database.
    exportWorkers: true,
    onQuery: (text) => {
      if (/from "evaluations"/.test(text)) evaluationReads.push(text);
    },
  },
);
