/** The objects of SPEC §3 as they travel on the wire. Field names are SPEC's. */
import { z } from 'zod';
import { ROLES } from '../roles.ts';
import {
  API_TOKEN_ACCESS,
  COMPLIANCE_PERIOD_LIMITS,
  complianceMessages,
  GRAPH_REPORTS,
  type GraphReport,
  CARD_ITEM_TYPES,
  DURATIONS,
  GRAPH_TYPES,
  PERIOD_LIMITS,
  periodTooLongMessage,
  TIME_DIVISIONS,
  WEBHOOK_EVENTS,
  type Duration,
} from './vocabulary.ts';

export * from './vocabulary.ts';

export const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Date-times on the wire are ISO 8601 strings in UTC (docs/decisions/0003-wire-formats.md). */
export const dateTime = z.iso.datetime({ offset: true });

export const board = z.object({
  id,
  name: z.string(),
  cardIDs: z.array(id),
  hasAnonymous: z.boolean(),
});
export type Board = z.infer<typeof board>;

export const cardItem = z.object({
  id,
  cardID: id,
  type: z.enum(CARD_ITEM_TYPES),
  content: z.string(),
  na: z.boolean(),
  order: z.number().int(),
  isDeleted: z.boolean(),
  /** Our addition (issue 12): a failed Pass/Fail item needs a photo, a note, before the evaluation is sent. */
  photoOnFail: z.boolean(),
  noteOnFail: z.boolean(),
});
export type CardItem = z.infer<typeof cardItem>;

export const card = z.object({
  id,
  name: z.string(),
  hasBoard: z.boolean(),
  cardItems: z.array(cardItem),
  /** Our addition (issue 13): completing an evaluation of the card needs a signature and a typed name. */
  signOffRequired: z.boolean(),
});
export type Card = z.infer<typeof card>;

/** A photo on an item's result (issue 12): its file is read through get-result-photo. */
export const photo = z.object({ id, itemID: id, width: z.number().int(), height: z.number().int() });
export type Photo = z.infer<typeof photo>;
/** A photo of an action's close-out (docs/decisions/0586). */
export const actionPhoto = z.object({ id, width: z.number().int(), height: z.number().int() });
export type ActionPhoto = z.infer<typeof actionPhoto>;

export const result = z.object({
  item_id: id,
  type: z.enum(CARD_ITEM_TYPES),
  order: z.number().int(),
  pass: z.boolean().nullable(),
  text_result: z.string().nullable(),
  numeric_result: z.number().nullable(),
  na: z.boolean(),
  content: z.string(),
  /** Our additions (issue 12): the evaluator's short note and the photos on this item. */
  note: z.string().nullable(),
  photos: z.array(z.object({ id, width: z.number().int(), height: z.number().int() })),
});
export type Result = z.infer<typeof result>;

export const evaluation = z.object({
  ID: id,
  boardID: id,
  boardName: z.string(),
  cardID: id,
  cardName: z.string(),
  userName: z.string(),
  pass: z.boolean(),
  hasFeedback: z.boolean(),
  completedTime: dateTime,
  isUsers: z.boolean(),
  /** Our addition (docs/decisions/0730): present when completedTime is the device's, captured offline. */
  completedOnDevice: z.literal(true).optional(),
  results: z.array(result).optional(),
});
export type Evaluation = z.infer<typeof evaluation>;

/** A card's local day on the board view whose evaluations get-evaluations lists only in part: its totals. */
export const boardDayTotals = z.object({
  cardID: id,
  /** The local calendar date, YYYY-MM-DD, in the request's time zone. */
  date: z.string(),
  pass: z.number().int(),
  fail: z.number().int(),
});
export type BoardDayTotals = z.infer<typeof boardDayTotals>;

export const feedback = z.object({
  id,
  evalID: id.nullable(),
  cardID: id.nullable(),
  cardName: z.string().nullable(),
  boardID: id,
  boardName: z.string(),
  userName: z.string(),
  createdTime: dateTime,
  content: z.string(),
  isUsers: z.boolean(),
});
export type Feedback = z.infer<typeof feedback>;

export const user = z.object({
  id,
  email: z.string(),
  role: z.enum(ROLES),
  emailVerified: z.boolean(),
});
export type User = z.infer<typeof user>;

export const usage = z.object({ used: z.number().int(), total: z.number().int() });
export type Usage = z.infer<typeof usage>;

export const userData = z.object({
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  isEvaluator: z.boolean(),
  isViewOnly: z.boolean(),
  isPaid: z.boolean(),
  name: z.string(),
  orgName: z.string(),
  /** Our addition (docs/decisions/0587): the organisation's IANA time zone. */
  timeZone: z.string(),
});
export type UserData = z.infer<typeof userData>;

/** The organisation's own settings (docs/decisions/0587). */
export const orgSettings = z.object({ orgName: z.string(), timeZone: z.string() });
export type OrgSettings = z.infer<typeof orgSettings>;

/** -1 means "all boards", "all cards", "no single item", or for start_number "Now" (SPEC §3). */
const idOrAll = z.union([z.literal(-1), id]);

const settingShape = {
  board_id: idOrAll,
  card_id: idOrAll,
  card_item_id: idOrAll,
  // How far back depends on the unit: checkPeriod says so with periodTooLongMessage.
  start_number: z.number().int().min(-1),
  start_duration: z.enum(DURATIONS),
  end_number: z.number().int().min(-1),
  end_duration: z.enum(DURATIONS),
  time_division: z.enum(TIME_DIVISIONS),
  type: z.enum(GRAPH_TYPES),
  graph_order: z.number().int().min(0).max(1_000),
};

function checkPeriod(
  s: { start_number: number; start_duration: Duration; end_number: number; end_duration: Duration },
  ctx: z.RefinementCtx,
) {
  if (s.start_number > PERIOD_LIMITS[s.start_duration])
    ctx.addIssue({ code: 'custom', path: ['start_number'], message: periodTooLongMessage(s.start_duration) });
  if (s.end_number > PERIOD_LIMITS[s.end_duration])
    ctx.addIssue({ code: 'custom', path: ['end_number'], message: periodTooLongMessage(s.end_duration) });
}

function checkCompliance(
  s: {
    report?: GraphReport | undefined;
    start_number: number;
    start_duration: Duration;
    time_division: (typeof TIME_DIVISIONS)[number];
    card_id: number;
    card_item_id: number;
    type: (typeof GRAPH_TYPES)[number];
  },
  ctx: z.RefinementCtx,
) {
  if (s.report !== 'ScheduleCompliance') return;
  if (s.start_number > COMPLIANCE_PERIOD_LIMITS[s.start_duration])
    ctx.addIssue({ code: 'custom', path: ['start_number'], message: complianceMessages.period });
  if (s.time_division !== 'Custom Interval')
    ctx.addIssue({ code: 'custom', path: ['time_division'], message: complianceMessages.division });
  if (s.card_id !== -1 || s.card_item_id !== -1)
    ctx.addIssue({ code: 'custom', path: ['card_id'], message: complianceMessages.target });
  if (s.type === 'Line') ctx.addIssue({ code: 'custom', path: ['type'], message: complianceMessages.type });
}

/** A graph's setting as get-report takes it: SPEC's fields only. */
export const reportSettingInput = z.strictObject(settingShape).superRefine(checkPeriod);
/** A graph as add-dashboard and edit-dashboard take it: SPEC's fields and, optionally, what it reports. */
export const dashboardSettingInput = z
  .strictObject({ ...settingShape, report: z.enum(GRAPH_REPORTS).optional() })
  .superRefine(checkPeriod)
  .superRefine(checkCompliance);
export const dashboardSetting = z.object({ ...settingShape, report: z.enum(GRAPH_REPORTS), id });
export type DashboardSetting = z.infer<typeof dashboardSetting>;
export type DashboardSettingInput = z.infer<typeof dashboardSettingInput>;
export type ReportSettingInput = z.infer<typeof reportSettingInput>;

export const dashboard = z.object({
  id,
  name: z.string(),
  isDefault: z.boolean(),
  settings: z.array(dashboardSetting),
});
export type Dashboard = z.infer<typeof dashboard>;

/** API tokens (docs/decisions/0584). */

export const apiToken = z.object({
  id,
  name: z.string(),
  access: z.enum(API_TOKEN_ACCESS),
  /** The secret's first characters, to recognise it in a configuration. */
  prefix: z.string(),
  createdBy: z.string(),
  createdAt: dateTime,
  expiresAt: dateTime.nullable(),
  lastUsedAt: dateTime.nullable(),
});
export type ApiToken = z.infer<typeof apiToken>;

/** Webhooks (docs/decisions/0585): what an endpoint can be told. */

export const webhook = z.object({
  id,
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  createdAt: dateTime,
});
export type Webhook = z.infer<typeof webhook>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const webhookDelivery = z.object({
  id,
  /** The id a receiver deduplicates by (sent as Checkboard-Delivery). */
  deliveryID: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  createdAt: dateTime,
  lastAttemptAt: dateTime.nullable(),
  nextAttemptAt: dateTime.nullable(),
  lastStatusCode: z.number().int().nullable(),
  /** The start of the last answer's body, or why there was none. */
  lastResponse: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

/** Issue 13 (docs/decisions/0711-0713): an evaluation's signature, and a share link to its report. */
export const signature = z.object({ width: z.number().int(), height: z.number().int() });

export const reportLink = z.object({
  id,
  evalID: id,
  /** The token's first characters, to recognise a link; the token itself is shown once. */
  prefix: z.string(),
  createdBy: z.string(),
  createdTime: dateTime,
  expiresTime: dateTime.nullable(),
  revokedTime: dateTime.nullable(),
  lastUsedTime: dateTime.nullable(),
  status: z.enum(['Active', 'Expired', 'Revoked']),
});
export type ReportLink = z.infer<typeof reportLink>;
