import { defineHandlers } from '../../http/handlers.ts';
import { currentKey } from './keys.ts';
import * as anonymous from './service.ts';

export const anonymousHandlers = defineHandlers({
  getAnonymousEvaluationKey: (input, ctx) => currentKey(ctx, input.boardID),
  getBoardAnon: (_input, ctx) => anonymous.boardOfKey(ctx),
  getCardsByBoardIdAnon: async (_input, ctx) => ({ cards: await anonymous.cardsOfKey(ctx) }),
  getCardAnon: async (input, ctx) => ({ card: await anonymous.cardOfKey(ctx, input.cardID) }),
  addEvaluationAnon: (input, ctx) => anonymous.startEvaluation(ctx, input.cardID),
  addResultsAnon: (input, ctx) =>
    anonymous.completeEvaluation(ctx, input.evalID, input.results, input.signedName),
  deleteEvaluationAnon: (input, ctx) => anonymous.deleteEvaluation(ctx, input.evalID, input.cardID),
  getEvaluationAnon: async (input, ctx) => ({ evaluation: await anonymous.getEvaluation(ctx, input.evalID) }),
  addFeedbackAnon: (input, ctx) => anonymous.addFeedback(ctx, input.evalID, input.content),
  editFeedbackAnon: async (input, ctx) => ({
    feedback: await anonymous.editFeedback(ctx, input.evalID, input.feedbackID, input.content),
  }),
  deleteFeedbackAnon: (input, ctx) => anonymous.deleteFeedback(ctx, input.evalID, input.feedbackID),
  addResultPhotoAnon: async (input, ctx) => ({
    photo: await anonymous.attachPhoto(ctx, input.evalID, input.itemID),
  }),
  addEvaluationSignatureAnon: (input, ctx) => anonymous.attachSignature(ctx, input.evalID),
  deleteResultPhotoAnon: (input, ctx) => anonymous.removePhoto(ctx, input.photoID),
  getResultPhotoAnon: (input, ctx) => anonymous.readPhoto(ctx, input.photoID, input.size),
  getFeedbackByEvaluationIdAnon: async (input, ctx) => ({
    feedback: await anonymous.feedbackOf(ctx, input.evalID),
  }),
});
