import { defineHandlers } from '../../http/handlers.ts';
import { userCaller } from '../shared/caller.ts';
import { searchFilter } from '../shared/search.ts';
import * as feedback from '../shared/feedback.ts';

export const feedbackHandlers = defineHandlers({
  addFeedback: (input, ctx) =>
    feedback.addFeedback(
      ctx.db,
      userCaller(ctx.actor),
      { evaluationId: input.evaluationID ?? null, boardId: input.boardID, content: input.content },
      ctx.now,
    ),
  // isAdmin is the web app's hint only: userCaller takes the right to change others' feedback from the role.
  editFeedback: async (input, ctx) => ({
    feedback: await feedback.editFeedback(
      ctx.db,
      userCaller(ctx.actor),
      { feedbackId: input.feedbackID, evaluationId: input.evaluationID, content: input.content },
      ctx.now,
    ),
  }),
  deleteFeedback: (input, ctx) =>
    feedback.deleteFeedback(ctx.db, userCaller(ctx.actor), {
      feedbackId: input.feedbackID,
      evaluationId: input.evaluationID,
      boardId: input.boardID,
    }),
  getFeedbackByEvaluationId: async (input, ctx) => ({
    feedback: await feedback.feedbackForEvaluation(ctx.db, userCaller(ctx.actor), input.evaluationID),
  }),
  searchFeedback: async (input, ctx) => {
    const caller = userCaller(ctx.actor);
    return { feedback: await feedback.searchFeedback(ctx.db, caller, searchFilter(input, caller)) };
  },
  getFeedbackExcel: (input, ctx) =>
    ctx.exports(
      { call: 'getFeedbackExcel', actor: ctx.actor, input, now: ctx.now, appUrl: ctx.config.appUrl },
      ctx.log,
    ),
});
