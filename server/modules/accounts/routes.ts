import { roleFlags } from '../../../common/roles.ts';
import { clearSessionCookies, endSession, refreshSession } from '../../auth/sessions.ts';
import { defineHandlers } from '../../http/handlers.ts';
import * as accounts from './service.ts';
import { getOrgTimeZone } from '../shared/orgTimeZone.ts';
import { orgPath } from '../shared/urls.ts';

export const accountHandlers = defineHandlers({
  signup: (input, ctx) => accounts.signup(ctx, input),
  verifyEmail: (input, ctx) => accounts.verifyEmail(ctx, input.token),
  resendVerification: (input, ctx) => accounts.resendVerification(ctx, input.username),
  login: (input, ctx) => accounts.login(ctx, input),
  requestPasswordReset: (input, ctx) => accounts.requestPasswordReset(ctx, input.username),
  resetPassword: (input, ctx) => accounts.resetPassword(ctx, input),

  getUserData: async (_input, { actor, db }) => ({
    ...roleFlags(actor.role),
    isPaid: actor.paid,
    name: actor.email,
    orgName: actor.orgName,
    timeZone: await getOrgTimeZone(db, actor.orgId),
  }),

  refreshToken: async (_input, { actor, db, config, request, reply, now }) => {
    // Public calls see only a cookie's session, never an API token's actor.
    if (!actor || actor.sessionId === null) {
      clearSessionCookies(config, request, reply);
      return { isAuthorized: false };
    }
    await refreshSession(db, config, request, reply, { orgId: actor.orgId, sessionId: actor.sessionId }, now);
    return { isAuthorized: true };
  },

  logout: async (_input, { actor, db, config, request, reply }) => {
    clearSessionCookies(config, request, reply);
    if (!actor || actor.sessionId === null) return { error: null, redirectURL: '/login' };
    await endSession(db, { orgId: actor.orgId, sessionId: actor.sessionId });
    return { error: null, redirectURL: orgPath(actor.orgName, 'login') };
  },
});
