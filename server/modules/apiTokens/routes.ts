import { defineHandlers } from '../../http/handlers.ts';
import * as tokens from './service.ts';

export const apiTokenHandlers = defineHandlers({
  getApiTokens: async (_input, ctx) => ({ tokens: await tokens.listApiTokens(ctx) }),
  addApiToken: (input, ctx) => tokens.addApiToken(ctx, input),
  revokeApiToken: (input, ctx) => tokens.revokeApiToken(ctx, input.id),
});
