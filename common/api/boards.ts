import { z } from 'zod';
import { itemNameSchema } from '../validation.ts';
import { defineCall } from './define.ts';
import { board, id, usage } from './entities.ts';

const boardFields = {
  name: itemNameSchema,
  // The 15-card limit is the server's to enforce with its message; the array is only bounded here.
  cardIDs: z.array(id).max(1000),
  hasAnonymous: z.boolean(),
};
/** Narrows to the caller's own organisation; another name is answered as not found. */
const orgName = z.string().max(200).optional();

export const addBoard = defineCall({
  path: '/api/add-board',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject(boardFields),
  response: z.object({ board }),
  failMsg: 'Unable to create the board. Please try again.',
});

export const editBoard = defineCall({
  path: '/api/edit-board',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ id, ...boardFields }),
  response: z.object({ board }),
  failMsg: 'Unable to edit the board. Please try again.',
});

export const deleteBoard = defineCall({
  path: '/api/delete-board',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ id }),
  response: z.object({ id }),
  failMsg: 'Unable to delete the board. Please try again.',
});

export const getBoards = defineCall({
  path: '/api/get-boards',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({}),
  response: z.object({ boards: z.array(board) }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const getBoardsUsed = defineCall({
  path: '/api/get-boards-used',
  method: 'POST',
  access: 'member',
  mutates: false,
  request: z.strictObject({ orgName }),
  response: usage,
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const syncCardBoards = defineCall({
  path: '/api/sync-card-boards',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ cardID: id, boardIDs: z.array(id).max(1000) }),
  response: z.object({ boardIDs: z.array(id) }),
  failMsg: 'Unable to sync card to boards. Please try again.',
});
