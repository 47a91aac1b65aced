/**
 * The board view's kept answers (decision 0784): a member's get-evaluations is answered from the answer kept
 * at the board's revision, each member seeing their own evaluations as theirs; every write that changes the
 * answer is seen at once, by this server and by another one on the same database (a second process, its own
 * kept answers).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/index.ts';
import { buildBoard, buildCard, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase } from '../../test/harness.ts';
import { userCaller } from '../shared/caller.ts';
import { boardAnswersOf } from '../shared/boardAnswers.ts';
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

    async function view(s: Setup, cookie: string) {
      const answer = await call(
        env,
        'getEvaluations',
        { boardID: s.board.id, startDateTime: since() },
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
    const input = (s: Setup) => ({ boardId: s.board.id, since: Date.parse(since()) });

    /** The answer the other process gives the member. */
    async function viewElsewhere(s: Setup, user: Setup['team']['admin']) {
      const written = await boardEvaluations(other.db, callerOf(s, user), input(s), env.clock.now());
      return written.parse();
    }

    /** The answer read afresh: in a transaction nothing is kept or served from what is kept. */
    async function fresh(s: Setup, user: Setup['team']['admin']) {
      return env.db.transaction().execute(async (trx) => {
        const written = await boardEvaluations(trx, callerOf(s, user), input(s), env.clock.now());
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
