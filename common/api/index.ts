/** The whole API contract (SPEC §7 plus the additions docs/product-decisions.md and docs/decisions/ name). */
import '../zod-messages.ts';
import * as accounts from './accounts.ts';
import * as actions from './actions.ts';
import * as anonymous from './anonymous.ts';
import * as apiTokens from './apiTokens.ts';
import * as billing from './billing.ts';
import * as boards from './boards.ts';
import * as cards from './cards.ts';
import * as dashboards from './dashboards.ts';
import * as evaluations from './evaluations.ts';
import * as evidence from './evidence.ts';
import * as sso from './sso.ts';
import * as org from './org.ts';
import * as reports from './reports.ts';
import * as schedules from './schedules.ts';
import * as users from './users.ts';
import * as webhooks from './webhooks.ts';

export const api = {
  ...accounts,
  ...org,
  ...billing,
  ...users,
  ...boards,
  ...cards,
  ...evaluations,
  ...evidence,
  ...reports,
  ...anonymous,
  ...dashboards,
  ...actions,
  ...schedules,
  ...apiTokens,
  ...webhooks,
  ...sso,
} as const;

/** The calls by area, as the API reference (GET /api/openapi.json, /q/{org}/docs) groups them. */
export const apiAreas = {
  Accounts: accounts,
  Organisation: org,
  Billing: billing,
  Users: users,
  Boards: boards,
  Cards: cards,
  Evaluations: evaluations,
  Evidence: evidence,
  'Reports and sign-off': reports,
  Anonymous: anonymous,
  Analytics: dashboards,
  Actions: actions,
  Schedules: schedules,
  'API tokens': apiTokens,
  Webhooks: webhooks,
  'Single sign-on': sso,
} as const;

export type Api = typeof api;
export type CallName = keyof Api;

export * from './actionTypes.ts';
export * from './scheduleTypes.ts';
export * from './define.ts';
export * from './entities.ts';
export * from './inputs.ts';
