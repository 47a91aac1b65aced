/** Evaluations captured offline and sent later (issue 14, docs/decisions/0730). */
import { describe, expect, it } from 'vitest';
import { DEVICE_TIME_MAX_AGE_MS, DEVICE_TIME_SKEW_MS } from '../../../common/constants.ts';
import { buildBoard, buildCard, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { completionTime } from '../shared/evaluations.ts';

const HOUR = 60 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function setup(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org, {
    items: [{ type: 'pass_fail', content: '<p>Door shut</p>' }],
  });
  const board = await buildBoard(env, team.org, { cardIds: [card.id] });
  const start = async () => {
    const answer = await call(
      env,
      'addEvaluation',
      { boardID: board.id, cardID: card.id },
      { cookie: team.evaluator.cookie },
    );
    return answer.body.id as number;
  };
  const results = [{ item_id: card.itemIds[0]!, pass: true }];
  return { team, card, board, start, results };
}

const rowOf = (env: TestEnv, id: number) =>
  env.db
    .selectFrom('evaluations')
    .select(['completed_at', 'completed_on_device', 'device_completed_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('completionTime', () => {
  const now = Date.UTC(2026, 10, 25, 12);
  it('keeps a device time from the last 7 days, never later than the server’s', () => {
    expect(completionTime(now, now - 3 * HOUR)).toEqual({
      completedAt: now - 3 * HOUR,
      onDevice: true,
      deviceTime: now - 3 * HOUR,
    });
    expect(completionTime(now, now - DEVICE_TIME_MAX_AGE_MS).onDevice).toBe(true);
    expect(completionTime(now, now + DEVICE_TIME_SKEW_MS)).toEqual({
      completedAt: now,
      onDevice: true,
      deviceTime: now + DEVICE_TIME_SKEW_MS,
    });
  });
  it('uses the server’s time for a device time in the future, too old, or missing', () => {
    expect(completionTime(now, now + DEVICE_TIME_SKEW_MS + 1)).toEqual({
      completedAt: now,
      onDevice: false,
      deviceTime: now + DEVICE_TIME_SKEW_MS + 1,
    });
    expect(completionTime(now, now - DEVICE_TIME_MAX_AGE_MS - 1).onDevice).toBe(false);
    expect(completionTime(now, undefined)).toEqual({ completedAt: now, onDevice: false, deviceTime: null });
  });
});

describeEachDatabase('evaluations captured offline', (env) => {
  it('keeps the device’s completion time when plausible, and says so', async () => {
    const s = await setup(env);
    const evalID = await s.start();
    const captured = env.clock.now() - 5 * HOUR;
    const answer = await call(
      env,
      'addResults',
      { evalID, deviceCompletedTime: iso(captured), results: s.results },
      { cookie: s.team.evaluator.cookie },
    );
    expect(answer).toMatchObject({ status: 200, body: { complete: true } });
    expect(await rowOf(env, evalID)).toEqual({
      completed_at: captured,
      completed_on_device: 1,
      device_completed_at: captured,
    });
    const read = await call(env, 'getEvaluation', { evalID }, { cookie: s.team.viewer.cookie });
    expect(read.body.evaluation).toMatchObject({ completedTime: iso(captured), completedOnDevice: true });
    // The board view counts it on the day it was done.
    const board = await call(
      env,
      'getEvaluations',
      { boardID: s.board.id, startDateTime: iso(captured - 24 * HOUR), timeZone: 'UTC' },
      { cookie: s.team.viewer.cookie },
    );
    expect(board.body.evaluations.map((e: { completedTime: string }) => e.completedTime)).toEqual([
      iso(captured),
    ]);
  });

  it('uses the server’s time for a device time in the future or older than 7 days, keeping what was said', async () => {
    const s = await setup(env);
    const now = env.clock.now();
    for (const said of [now + HOUR, now - DEVICE_TIME_MAX_AGE_MS - HOUR]) {
      const evalID = await s.start();
      const answer = await call(
        env,
        'addResults',
        { evalID, deviceCompletedTime: iso(said), results: s.results },
        { cookie: s.team.evaluator.cookie },
      );
      expect(answer.status).toBe(200);
      expect(await rowOf(env, evalID)).toEqual({
        completed_at: now,
        completed_on_device: 0,
        device_completed_at: said,
      });
      const read = await call(env, 'getEvaluation', { evalID }, { cookie: s.team.evaluator.cookie });
      expect(read.body.evaluation.completedOnDevice).toBeUndefined();
    }
  });

  it('an evaluation completed online has no device time', async () => {
    const s = await setup(env);
    const evalID = await s.start();
    await call(env, 'addResults', { evalID, results: s.results }, { cookie: s.team.evaluator.cookie });
    expect(await rowOf(env, evalID)).toEqual({
      completed_at: env.clock.now(),
      completed_on_device: 0,
      device_completed_at: null,
    });
  });

  it('a badly written device time is refused and nothing is completed', async () => {
    const s = await setup(env);
    const evalID = await s.start();
    const answer = await call(
      env,
      'addResults',
      { evalID, deviceCompletedTime: 'yesterday', results: s.results },
      { cookie: s.team.evaluator.cookie },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errMsg).toBeTruthy();
    expect(await rowOf(env, evalID)).toEqual({
      completed_at: null,
      completed_on_device: 0,
      device_completed_at: null,
    });
  });

  it('a queued submission sent again under its key is counted once, with its first time', async () => {
    const s = await setup(env);
    const evalID = await s.start();
    const captured = env.clock.now() - 2 * HOUR;
    const body = { evalID, deviceCompletedTime: iso(captured), results: s.results };
    const options = { cookie: s.team.evaluator.cookie, idempotencyKey: `outbox-${evalID}` };
    const first = await call(env, 'addResults', body, options);
    env.clock.advance(60_000);
    const again = await call(env, 'addResults', body, options);
    expect(first).toMatchObject({ status: 200, body: { complete: true } });
    expect(again).toMatchObject({ status: 200, body: { complete: true } });
    const results = await env.db
      .selectFrom('results')
      .select('id')
      .where('evaluation_id', '=', evalID)
      .execute();
    expect(results).toHaveLength(1);
    expect((await rowOf(env, evalID)).completed_at).toBe(captured);
  });
});
