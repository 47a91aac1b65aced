import { defineHandlers } from '../../http/handlers.ts';
import * as users from './service.ts';

export const userHandlers = defineHandlers({
  getUsers: async (_input, ctx) => ({ users: await users.listUsers(ctx) }),
  addUser: async (input, ctx) => ({ user: await users.addUser(ctx, input) }),
  editUser: async (input, ctx) => ({ user: await users.editUser(ctx, input) }),
  deleteUser: (input, ctx) => users.deleteUser(ctx, input.id),
});
