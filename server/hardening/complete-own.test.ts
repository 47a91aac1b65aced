/**
 * Issue 10, defect 6: only the evaluator who started an open evaluation may complete it with add-results;
 * an Administrator or Owner (who may delete any evaluation) may not finish another member's.
 */
import { expect, it } from 'vitest';
import { messages } from '../modules/shared/evaluations.ts';
import { buildBoard, buildCard, buildTeam } from '../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../test/harness.ts';

async function openEvaluation(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org);
  const board = await buildBoard(env, team.org, { cardIds: [card.id] });
  const started = await call(
    env,
    'addEvaluation',
    { boardID: board.id, cardID: card.id },
    {
      cookie: team.evaluator.cookie,
    },
  );
  expect(started.status).toBe(200);
  const results = [
    { item_id: card.itemIds[1]!, pass: false },
    { item_id: card.itemIds[2]!, pass: true },
  ];
  return { team, evalID: started.body.id as number, results };
}

async function stored(env: TestEnv, evalID: number) {
  const evaluation = await env.db
    .selectFrom('evaluations')
    .select(['completed_at', 'pass'])
    .where('id', '=', evalID)
    .executeTakeFirstOrThrow();
  const results = await env.db
    .selectFrom('results')
    .select('id')
    .where('evaluation_id', '=', evalID)
    .execute();
  return { ...evaluation, results: results.length };
}

describeEachDatabase('completing an evaluation', (env) => {
  it("refuses an Administrator's or Owner's add-results on another member's open evaluation, writing nothing", async () => {
    const { team, evalID, results } = await openEvaluation(env);
    for (const member of [team.admin, team.owner]) {
      const answer = await call(
        env,
        'addResults',
        { evalID, completedTime: new Date(env.clock.now()).toISOString(), results },
        { cookie: member.cookie },
      );
      expect(answer, member.role).toMatchObject({
        status: 404,
        body: { errMsg: messages.evaluationNotFound },
      });
    }
    expect(await stored(env, evalID)).toEqual({ completed_at: null, pass: null, results: 0 });

    // The evaluator who started it still completes it.
    const own = await call(
      env,
      'addResults',
      { evalID, completedTime: new Date(env.clock.now()).toISOString(), results },
      { cookie: team.evaluator.cookie },
    );
    expect(own).toMatchObject({ status: 200, body: { complete: true } });
    expect(await stored(env, evalID)).toMatchObject({ completed_at: env.clock.now(), pass: 0, results: 3 });
  });

  it("still lets an Administrator delete another member's evaluation", async () => {
    const { team, evalID } = await openEvaluation(env);
    const answer = await call(env, 'deleteEvaluation', { evalID }, { cookie: team.admin.cookie });
    expect(answer).toMatchObject({ status: 200, body: { evalID } });
  });
});
