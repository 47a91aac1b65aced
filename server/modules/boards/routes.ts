import { JsonText } from '../../lib/jsonText.ts';
import { defineHandlers } from '../../http/handlers.ts';
import * as boards from './boards.ts';

export const boardHandlers = defineHandlers({
  // Written once and sent as it is (decision 0775): asked for by every screen, and every 30 s.
  getBoards: async (_input, ctx) => JsonText.of({ boards: await boards.listBoards(ctx) }),
  getBoardsUsed: (input, ctx) => boards.boardsUsed(ctx, input.orgName),
  addBoard: async (input, ctx) => ({ board: await boards.addBoard(ctx, input) }),
  editBoard: async (input, ctx) => ({ board: await boards.editBoard(ctx, input) }),
  deleteBoard: (input, ctx) => boards.deleteBoard(ctx, input.id),
  syncCardBoards: async (input, ctx) => ({
    boardIDs: await boards.syncCardBoards(ctx, input.cardID, input.boardIDs),
  }),
});
