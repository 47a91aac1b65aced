/**
 * Calls made with an anonymous key instead of a session. The organisation and board come from the key;
 * orgName, boardID, cardID and evalID in a request can only narrow, never widen (docs/product-decisions.md).
 */
import { z } from 'zod';
import { defineCall } from './define.ts';
import { card, dateTime, evaluation, feedback, id } from './entities.ts';
import { feedbackContent, resultInput, signedName } from './inputs.ts';

const anon = { orgName: z.string().min(1).max(200), boardID: id, anonKey: z.string().min(1).max(200) };

export const getAnonymousEvaluationKey = defineCall({
  path: '/api/get-anonymous-evaluation-key',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({ boardID: id }),
  /**
   * Our additions: `url` is the anonymous evaluation address built from APP_URL; `qr` is its QR code drawn
   * by the server (docs/decisions/0761), the dark modules as one SVG path in a `size` × `size` box, the quiet
   * margin of QR_MARGIN modules included.
   */
  response: z.object({
    key: z.string(),
    url: z.string(),
    qr: z.object({ size: z.number().int().positive(), path: z.string() }),
  }),
  failMsg: 'Could not get key. Please try again later.',
});

/** Our addition: the anonymous pages' heading needs the board's name and whether the key still works. */
export const getBoardAnon = defineCall({
  path: '/api/get-board-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: false,
  request: z.strictObject(anon),
  response: z.object({ board: z.object({ id, name: z.string() }) }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const getCardsByBoardIdAnon = defineCall({
  path: '/api/get-cards-by-board-id-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: false,
  request: z.strictObject(anon),
  response: z.object({ cards: z.array(card) }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const getCardAnon = defineCall({
  path: '/api/get-card-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: false,
  request: z.strictObject({ ...anon, cardID: id }),
  response: z.object({ card }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const addEvaluationAnon = defineCall({
  path: '/api/add-evaluation-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: true,
  request: z.strictObject({ ...anon, cardID: id }),
  response: z.object({ id }),
  failMsg: 'Unable to create an evaluation. Please try again.',
});

export const addResultsAnon = defineCall({
  path: '/api/add-results-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: true,
  request: z.strictObject({
    ...anon,
    evalID: id,
    completedTime: dateTime.nullable().optional(),
    results: z.array(resultInput).max(1000),
    /** Our addition (issue 13): the name typed under the signature; a card requiring sign-off needs it. */
    signedName: signedName.nullable().optional(),
  }),
  response: z.object({ complete: z.boolean() }),
  failMsg: 'Unable to add the results. Please try again.',
});

/** SPEC §7: the anonymous variant of delete-evaluation is a POST on the same path. */
export const deleteEvaluationAnon = defineCall({
  path: '/api/delete-evaluation',
  method: 'POST',
  access: 'anonymous',
  mutates: true,
  request: z.strictObject({ ...anon, cardID: id, evalID: id }),
  response: z.object({ evalID: id }),
  failMsg: 'Unable to delete the results. Please try again.',
});

export const getEvaluationAnon = defineCall({
  path: '/api/get-evaluation-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: false,
  request: z.strictObject({ ...anon, evalID: id }),
  response: z.object({ evaluation }),
  failMsg: 'Did not find evaluation. Please try again later.',
});

export const addFeedbackAnon = defineCall({
  path: '/api/add-feedback-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: true,
  request: z.strictObject({ ...anon, evalID: id, content: feedbackContent }),
  response: z.object({ id }),
  failMsg: 'Could not add feedback. Please try again later.',
});

export const editFeedbackAnon = defineCall({
  path: '/api/edit-feedback-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: true,
  request: z.strictObject({ ...anon, evalID: id, feedbackID: id, content: feedbackContent }),
  response: z.object({ feedback }),
  failMsg: 'Could not edit feedback. Please try again later.',
});

export const deleteFeedbackAnon = defineCall({
  path: '/api/delete-feedback-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: true,
  request: z.strictObject({ ...anon, evalID: id, feedbackID: id }),
  response: z.object({ id }),
  failMsg: 'Could not delete feedback. Please try again later.',
});

export const getFeedbackByEvaluationIdAnon = defineCall({
  path: '/api/get-feedback-by-evaluation-id-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: false,
  request: z.strictObject({ ...anon, evalID: id }),
  response: z.object({ feedback: z.array(feedback) }),
  failMsg: 'Could not get feedback. Please try again later.',
});
