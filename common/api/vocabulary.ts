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

/**
 * What a saved graph reports (our addition, docs/decisions/0704): the pass rate of evaluations (SPEC's
 * report modes, from get-report; the default when the field is absent) or the schedule compliance of boards,
 * or of the cards of one board (from get-schedule-compliance).
 */
export const GRAPH_REPORTS = ['Evaluations', 'ScheduleCompliance'] as const;
export type GraphReport = (typeof GRAPH_REPORTS)[number];

/**
 * How far back a compliance graph's start may be, per unit: with the current, partial unit the period stays
 * within get-schedule-compliance's 366 days (COMPLIANCE_RANGE_MAX_DAYS in common/schedules.ts).
 */
export const COMPLIANCE_PERIOD_LIMITS: Record<Duration, number> = {
  Days: 365,
  Weeks: 51,
  Months: 11,
  Quarters: 3,
  Years: 0,
};

export const complianceMessages = {
  period: 'A schedule compliance graph can reach back at most 365 days, 51 weeks, 11 months or 3 quarters.',
  division: 'A schedule compliance graph covers the whole period: choose Custom Interval.',
  target: 'A schedule compliance graph is per board, or per card of one board: choose no card or item.',
  type: 'A schedule compliance graph is drawn as Bar or Table.',
};
