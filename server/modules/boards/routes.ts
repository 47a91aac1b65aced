import { defineHandlers } from '../../http/handlers.ts';
import * as boards from './boards.ts';

export const boardHandlers = defineHandlers({
  getBoards: async (_input, ctx) => ({ boards: await boards.listBoards(ctx) }),
  getBoardsUsed: (input, ctx) => boards.boardsUsed(ctx, input.orgName),
  addBoard: async (input, ctx) => ({ board: await boards.addBoard(ctx, input) }),
  editBoard: async (input, ctx) => ({ board: await boards.editBoard(ctx, input) }),
  deleteBoard: (input, ctx) => boards.deleteBoard(ctx, input.id),
  syncCardBoards: async (input, ctx) => ({
    boardIDs: await boards.syncCardBoards(ctx, input.cardID, input.boardIDs),
  }),
});
