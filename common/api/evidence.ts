/**
 * Evidence on results (issue 12, docs/decisions/0640): photos attached to an item of an open evaluation,
 * removed while it is open, and read by whoever may read the evaluation. Additions to SPEC §7.
 */
import { z } from 'zod';
import { PHOTO_SIZES } from '../evidence.ts';
import { defineCall } from './define.ts';
import { id, photo } from './entities.ts';

/** Query-string fields arrive as text: ids are read as whole numbers, strictly. */
const queryId = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value),
  id,
);
const anon = { orgName: z.string().min(1).max(200), boardID: queryId, anonKey: z.string().min(1).max(200) };

export const addResultPhoto = defineCall({
  path: '/api/add-result-photo',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  upload: 'photo',
  request: z.strictObject({ evalID: queryId, itemID: queryId }),
  response: z.object({ photo }),
  failMsg: 'Unable to add the photo. Please try again.',
});

export const deleteResultPhoto = defineCall({
  path: '/api/delete-result-photo',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  request: z.strictObject({ photoID: id }),
  response: z.object({ id }),
  failMsg: 'Unable to delete the photo. Please try again.',
});

export const getResultPhoto = defineCall({
  path: '/api/get-result-photo',
  method: 'GET',
  access: 'member',
  mutates: false,
  file: true,
  image: true,
  request: z.strictObject({ photoID: queryId, size: z.enum(PHOTO_SIZES).default('full') }),
  response: z.unknown(),
  failMsg: 'Unable to get the photo. Please try again later.',
});

export const addResultPhotoAnon = defineCall({
  path: '/api/add-result-photo-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: true,
  upload: 'photo',
  request: z.strictObject({ ...anon, evalID: queryId, itemID: queryId }),
  response: z.object({ photo }),
  failMsg: 'Unable to add the photo. Please try again.',
});

export const deleteResultPhotoAnon = defineCall({
  path: '/api/delete-result-photo-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: true,
  request: z.strictObject({
    orgName: z.string().min(1).max(200),
    boardID: id,
    anonKey: z.string().min(1).max(200),
    photoID: id,
  }),
  response: z.object({ id }),
  failMsg: 'Unable to delete the photo. Please try again.',
});

export const getResultPhotoAnon = defineCall({
  path: '/api/get-result-photo-anon',
  method: 'GET',
  access: 'anonymous',
  mutates: false,
  file: true,
  image: true,
  request: z.strictObject({ ...anon, photoID: queryId, size: z.enum(PHOTO_SIZES).default('full') }),
  response: z.unknown(),
  failMsg: 'Unable to get the photo. Please try again later.',
});
