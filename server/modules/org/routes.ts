import { defineHandlers } from '../../http/handlers.ts';
import * as org from './service.ts';

export const orgHandlers = defineHandlers({
  getOrgSettings: (_input, ctx) => org.getOrgSettings(ctx),
  setOrgSettings: (input, ctx) => org.setOrgSettings(ctx, input),
});
