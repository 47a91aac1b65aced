import { z } from 'zod';
import { defineCall } from './define.ts';
import { boardDayTotals, dateTime, evaluation, feedback, id } from './entities.ts';
import { exportRequest, feedbackContent, resultInput, searchRequest, timeZone } from './inputs.ts';

export const addEvaluation = defineCall({
  path: '/api/add-evaluation',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({ boardID: id, cardID: id }),
  response: z.object({ id }),
  failMsg: 'Unable to create an evaluation. Please try again.',
});

export const addResults = defineCall({
  path: '/api/add-results',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({
    evalID: id,
    /** Accepted for compatibility; the server's clock sets the completed time (docs/product-decisions.md). */
    completedTime: dateTime.nullable().optional(),
    /**
     * Our addition (issue 14, docs/decisions/0730): when the evaluator finished, by the device's clock, for
     * an evaluation captured offline and sent later. Kept as the completed time when plausible.
     */
    deviceCompletedTime: dateTime.optional(),
    results: z.array(resultInput).max(1000),
  }),
  response: z.object({ complete: z.boolean() }),
  failMsg: 'Unable to add the results. Please try again.',
});

export const deleteEvaluation = defineCall({
  path: '/api/delete-evaluation',
  method: 'DELETE',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({ evalID: id }),
  response: z.object({ evalID: id }),
  failMsg: 'Unable to delete the results. Please try again.',
});

export const getEvaluations = defineCall({
  path: '/api/get-evaluations',
  method: 'POST',
  access: 'member',
  mutates: false,
  /**
   * Our addition: `timeZone`, the IANA zone whose calendar days the board draws (default UTC). The answer
   * holds, per card and local day, that day's last BOARD_SQUARES_PER_DAY evaluations, and each card's last 3
   * (docs/decisions/0620-board-view-bounded.md).
   */
  request: z.strictObject({ boardID: id, startDateTime: dateTime, timeZone: timeZone.optional() }),
  response: z.object({
    evaluations: z.array(evaluation),
    /** Our addition: the days (card, local date) with more evaluations than listed, with that day's totals. */
    moreDays: z.array(boardDayTotals).optional(),
  }),
  failMsg: 'Did not find evaluations. Please try again later.',
});

export const getEvaluation = defineCall({
  path: '/api/get-evaluation',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({ evalID: id }),
  response: z.object({ evaluation }),
  failMsg: 'Did not find evaluation. Please try again later.',
});

export const searchEvaluations = defineCall({
  path: '/api/search-evaluations',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  request: searchRequest,
  response: z.object({ evaluations: z.array(evaluation) }),
  failMsg: 'Did not find evaluations. Please try again later.',
});

export const searchEvaluationsWithResults = defineCall({
  path: '/api/search-evaluations-with-results',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  request: searchRequest,
  response: z.object({ evaluations: z.array(evaluation) }),
  failMsg: 'Did not find evaluations. Please try again later.',
});

export const searchFeedback = defineCall({
  path: '/api/search-feedback',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  request: searchRequest,
  response: z.object({ feedback: z.array(feedback) }),
  failMsg: 'Could not get feedback. Please try again later.',
});

export const getExcel = defineCall({
  path: '/api/get-excel',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  file: true,
  request: exportRequest,
  response: z.unknown(),
  failMsg: 'There was an error getting the excel file.',
});

/** Our addition: the Feedback tab's export, with the same filter as search-feedback. */
export const getFeedbackExcel = defineCall({
  path: '/api/get-feedback-excel',
  method: 'POST',
  access: 'evaluator',
  mutates: false,
  file: true,
  request: exportRequest,
  response: z.unknown(),
  failMsg: 'There was an error getting the excel file.',
});

export const addFeedback = defineCall({
  path: '/api/add-feedback',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  /** evaluationID null or absent: board-level feedback from the board view. */
  request: z.strictObject({ evaluationID: id.nullable().optional(), boardID: id, content: feedbackContent }),
  response: z.object({ id }),
  failMsg: 'Could not add feedback. Please try again later.',
});

export const editFeedback = defineCall({
  path: '/api/edit-feedback',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({
    /** A UI hint only: the server decides from the session's role (docs/product-decisions.md). */
    isAdmin: z.boolean().optional(),
    feedbackID: id,
    evaluationID: id.nullable().optional(),
    content: feedbackContent,
  }),
  response: z.object({ feedback }),
  failMsg: 'Could not edit feedback. Please try again later.',
});

export const deleteFeedback = defineCall({
  path: '/api/delete-feedback',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({
    isAdmin: z.boolean().optional(),
    feedbackID: id,
    evaluationID: id.nullable().optional(),
    boardID: id.optional(),
  }),
  response: z.object({ id }),
  failMsg: 'Could not delete feedback. Please try again later.',
});

export const getFeedbackByEvaluationId = defineCall({
  path: '/api/get-feedback-by-evaluation-id',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({ evaluationID: id }),
  response: z.object({ feedback: z.array(feedback) }),
  failMsg: 'Could not get feedback. Please try again later.',
});
