import { defineHandlers } from '../../http/handlers.ts';
import { userCaller } from '../shared/caller.ts';
import { searchFilter } from '../shared/search.ts';
import * as evaluations from '../shared/evaluations.ts';
import { removeObjects } from '../shared/photos.ts';

export const evaluationHandlers = defineHandlers({
  addEvaluation: (input, ctx) =>
    evaluations.startEvaluation(
      ctx.db,
      userCaller(ctx.actor),
      { boardId: input.boardID, cardId: input.cardID },
      ctx.now,
    ),
  // completedTime is accepted and ignored: the server's clock completes the evaluation (docs/product-decisions.md),
  // or the device's, for one captured offline (deviceCompletedTime, docs/decisions/0730).
  addResults: (input, ctx) =>
    evaluations.completeEvaluation(
      ctx.db,
      userCaller(ctx.actor),
      {
        evalId: input.evalID,
        results: input.results,
        signedName: input.signedName,
        deviceCompletedTime: input.deviceCompletedTime,
      },
      ctx.now,
    ),
  deleteEvaluation: (input, ctx) =>
    evaluations.deleteEvaluation(ctx.db, userCaller(ctx.actor), input.evalID, (keys) =>
      ctx.afterCommit(() => removeObjects(ctx.storage, keys)),
    ),
  getEvaluation: async (input, ctx) => ({
    evaluation: await evaluations.getEvaluation(ctx.db, userCaller(ctx.actor), input.evalID),
  }),
  getEvaluations: (input, ctx) =>
    evaluations.boardEvaluations(
      ctx.db,
      userCaller(ctx.actor),
      { boardId: input.boardID, since: Date.parse(input.startDateTime), timeZone: input.timeZone },
      ctx.now,
    ),
  searchEvaluations: async (input, ctx) => {
    const caller = userCaller(ctx.actor);
    return {
      evaluations: await evaluations.searchEvaluations(ctx.db, caller, searchFilter(input, caller), {
        withResults: false,
      }),
    };
  },
  searchEvaluationsWithResults: async (input, ctx) => {
    const caller = userCaller(ctx.actor);
    return {
      evaluations: await evaluations.searchEvaluations(ctx.db, caller, searchFilter(input, caller), {
        withResults: true,
      }),
    };
  },
  getExcel: (input, ctx) =>
    ctx.exports(
      { call: 'getExcel', actor: ctx.actor, input, now: ctx.now, appUrl: ctx.config.appUrl },
      ctx.log,
    ),
});
