/** The whole API contract (SPEC §7 plus the additions docs/product-decisions.md and docs/decisions/ name). */
import '../zod-messages.ts';
import * as accounts from './accounts.ts';
import * as anonymous from './anonymous.ts';
import * as billing from './billing.ts';
import * as boards from './boards.ts';
import * as cards from './cards.ts';
import * as dashboards from './dashboards.ts';
import * as evaluations from './evaluations.ts';
import * as evidence from './evidence.ts';
import * as users from './users.ts';

export const api = {
  ...accounts,
  ...billing,
  ...users,
  ...boards,
  ...cards,
  ...evaluations,
  ...evidence,
  ...anonymous,
  ...dashboards,
} as const;

export type Api = typeof api;
export type CallName = keyof Api;

export * from './define.ts';
export * from './entities.ts';
export * from './inputs.ts';
