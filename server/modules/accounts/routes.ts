import { roleFlags } from '../../../common/roles.ts';
import { clearSessionCookies, endSession, refreshSession } from '../../auth/sessions.ts';
import { defineHandlers } from '../../http/handlers.ts';
import { orgPath } from './urls.ts';

export const accountHandlers = defineHandlers({
  getUserData: async (_input, { actor }) => ({
    ...roleFlags(actor.role),
    isPaid: actor.paid,
    name: actor.email,
    orgName: actor.orgName,
  }),

  refreshToken: async (_input, { actor, db, config, request, reply, now }) => {
    if (!actor) {
      clearSessionCookies(config, request, reply);
      return { isAuthorized: false };
    }
    await refreshSession(db, config, request, reply, actor.sessionId, now);
    return { isAuthorized: true };
  },

  logout: async (_input, { actor, db, config, request, reply }) => {
    clearSessionCookies(config, request, reply);
    if (!actor) return { error: null, redirectURL: '/login' };
    await endSession(db, actor.sessionId);
    return { error: null, redirectURL: orgPath(actor.orgName, 'login') };
  },
});
