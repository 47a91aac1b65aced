import { defineHandlers } from '../../http/handlers.ts';
import * as sso from './service.ts';

export const ssoHandlers = defineHandlers({
  getSsoSettings: (_input, ctx) => sso.getSettings(ctx),
  setSsoSettings: (input, ctx) => sso.setSettings(ctx, input),
  getSsoLoginOptions: (input, ctx) => sso.loginOptions(ctx, input.orgName),
  startSso: (input, ctx) => sso.start(ctx, input.orgName),
});
