/** Every module's handlers, registered from the contract by app.ts. */
import type { CallName } from '../../common/api/index.ts';
import { accountHandlers } from './accounts/routes.ts';
import { actionHandlers } from './actions/routes.ts';
import { analyticsHandlers } from './analytics/routes.ts';
import { anonymousHandlers } from './anonymous/routes.ts';
import { apiTokenHandlers } from './apiTokens/routes.ts';
import { billingHandlers } from './billing/routes.ts';
import { boardHandlers } from './boards/routes.ts';
import { cardHandlers } from './cards/routes.ts';
import { evaluationHandlers } from './evaluations/routes.ts';
import { evidenceHandlers } from './evidence/routes.ts';
import { feedbackHandlers } from './feedback/routes.ts';
import { reportHandlers } from './reports/routes.ts';
import { ssoHandlers } from './sso/routes.ts';
import { orgHandlers } from './org/routes.ts';
import { scheduleHandlers } from './schedules/routes.ts';
import { userHandlers } from './users/routes.ts';
import { webhookHandlers } from './webhooks/routes.ts';

export const allHandlers = {
  ...accountHandlers,
  ...orgHandlers,
  ...anonymousHandlers,
  ...billingHandlers,
  ...userHandlers,
  ...boardHandlers,
  ...cardHandlers,
  ...evaluationHandlers,
  ...evidenceHandlers,
  ...feedbackHandlers,
  ...analyticsHandlers,
  ...actionHandlers,
  ...scheduleHandlers,
  ...apiTokenHandlers,
  ...webhookHandlers,
  ...reportHandlers,
  ...ssoHandlers,
};

/**
 * Calls of the contract that no module answers yet, each with the work that brings its handler. This is
 * the one list of exceptions the contract test (contract.test.ts) accepts: a call that gets a handler must
 * leave it, and a new call without a handler fails the test until it has one. Empty: every call is answered.
 */
export const callsAwaitingHandlers: readonly CallName[] = [];
