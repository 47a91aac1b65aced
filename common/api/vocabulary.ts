/**
 * The contract's words and limits as plain values, without zod: the enums' members, their labels, the
 * period limits. The browser's build loads this file (docs/decisions/0628); entities.ts builds its schemas
 * from it and re-exports it.
 */

export const CARD_ITEM_TYPES = ['instruction', 'pass_fail', 'text', 'numeric', 'none'] as const;
export type CardItemType = (typeof CARD_ITEM_TYPES)[number];
export const CARD_ITEM_TYPE_LABELS: Record<CardItemType, string> = {
  instruction: 'Instruction',
  pass_fail: 'Pass/Fail',
  text: 'Text Question',
  numeric: 'Numeric Question',
  none: 'None',
};
/** The only types the card builder's picker offers (SPEC §3). */
export const PICKER_CARD_ITEM_TYPES: readonly CardItemType[] = ['instruction', 'pass_fail'];

export const DURATIONS = ['Days', 'Weeks', 'Months', 'Quarters', 'Years'] as const;

export const TIME_DIVISIONS = [...DURATIONS, 'Custom Interval'] as const;

export const GRAPH_TYPES = ['Bar', 'Line', 'Table'] as const;

export const REPORT_MODES = [
  'TimeSeries',
  'CustomIntervalBoards',
  'CustomIntervalCards',
  'CustomIntervalItems',
] as const;

/** How far back a graph's period may reach, per unit (docs/product-decisions.md "Constants"). */
export type Duration = (typeof DURATIONS)[number];
export const PERIOD_LIMITS: Record<Duration, number> = {
  Days: 730,
  Weeks: 104,
  Months: 48,
  Quarters: 16,
  Years: 10,
};

export const periodTooLongMessage = (duration: Duration) =>
  `A period can reach back at most ${PERIOD_LIMITS[duration]} ${duration.toLowerCase()}.`;

export const API_TOKEN_ACCESS = ['read', 'write'] as const;
export type ApiTokenAccess = (typeof API_TOKEN_ACCESS)[number];
export const API_TOKEN_ACCESS_LABELS: Record<ApiTokenAccess, string> = {
  read: 'Read only',
  write: 'Read and write',
};

export const WEBHOOK_URL_MAX = 500;
export const WEBHOOK_DESCRIPTION_MAX = 200;
export const WEBHOOK_EVENTS = [
  'evaluation.completed',
  'evaluation.failed',
  'feedback.added',
  'action.created',
  'action.closed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'evaluation.completed': 'An evaluation is completed',
  'evaluation.failed': 'An evaluation is completed with a failure',
  'feedback.added': 'Feedback is added',
  'action.created': 'A corrective action is raised',
  'action.closed': 'A corrective action is done or cancelled',
};
