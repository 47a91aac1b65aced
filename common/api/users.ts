import { z } from 'zod';
import { emailSchema } from '../validation.ts';
import { defineCall } from './define.ts';
import { id, user } from './entities.ts';

const roleFlags = {
  isViewOnly: z.boolean(),
  isEvaluator: z.boolean(),
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
};

export const addUser = defineCall({
  path: '/api/add-user',
  method: 'POST',
  access: 'admin',
  // Managing people needs a person signed in, never an API token (docs/decisions/0584).
  bearer: false,
  mutates: true,
  request: z.strictObject({ email: emailSchema, ...roleFlags }),
  response: z.object({ user }),
  failMsg: 'Could not add user. Please try again later.',
});

export const getUsers = defineCall({
  path: '/api/get-users',
  method: 'POST',
  access: 'admin',
  // Managing people needs a person signed in, never an API token (docs/decisions/0584).
  bearer: false,
  mutates: false,
  request: z.strictObject({}),
  response: z.object({ users: z.array(user) }),
  failMsg: 'Could not get users. Please try again later.',
});

export const editUser = defineCall({
  path: '/api/edit-user',
  method: 'POST',
  access: 'admin',
  // Managing people needs a person signed in, never an API token (docs/decisions/0584).
  bearer: false,
  mutates: true,
  request: z.strictObject({ id, email: emailSchema, ...roleFlags }),
  response: z.object({ user }),
  failMsg: 'Could not edit user. Please try again later.',
});

export const deleteUser = defineCall({
  path: '/api/delete-user',
  method: 'POST',
  access: 'admin',
  // Managing people needs a person signed in, never an API token (docs/decisions/0584).
  bearer: false,
  mutates: true,
  request: z.strictObject({ id }),
  response: z.object({ id }),
  failMsg: 'Could not delete user. Please try again later.',
});
