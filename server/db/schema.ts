/**
 * The tables as Kysely sees them. Conventions (docs/architecture.md): integer ids, times as epoch milliseconds
 * set by the application, booleans as 0/1, names with a lower-cased `name_key` for case-insensitive rules.
 */
import type { ColumnType, Generated } from 'kysely';
import type { Role } from '../../common/roles.ts';
import type { CardItemType } from '../../common/api/entities.ts';
import type { ActionPriority, ActionStatus } from '../../common/actions.ts';

type Bool = 0 | 1;

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  subscription_status: 'none' | 'active' | 'past_due' | 'canceled';
  num_departments: number;
  billing_customer_id: string | null;
  billing_subscription_id: string | null;
  /** IANA zone (docs/decisions/0587); UTC for organisations made before it existed. */
  time_zone: ColumnType<string, string | undefined, string>;
  created_at: number;
  updated_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  org_id: number;
  email: string;
  email_key: string;
  password_hash: string | null;
  role: Role;
  email_verified: Bool;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface SessionsTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  token_hash: string;
  created_at: number;
  last_seen_at: number;
  idle_expires_at: number;
  absolute_expires_at: number;
}

export type TokenPurpose = 'verify' | 'reset' | 'invite';

export interface OneTimeTokensTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  purpose: TokenPurpose;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface RateLimitEventsTable {
  id: Generated<number>;
  bucket: string;
  created_at: number;
}

/** A fixed-window counter: requests of one bucket (e.g. `anon:<address>`) in the window starting then. */
export interface RateLimitWindowsTable {
  bucket: string;
  window_start: number;
  count: number;
}

/** A periodic job's schedule and lease (server/jobs/runner.ts). */
export interface JobRunsTable {
  name: string;
  next_run_at: number;
  lease_owner: string | null;
  lease_until: number;
  runs: number;
  last_started_at: number | null;
  last_finished_at: number | null;
  last_error: string | null;
}

export interface CheckoutsTable {
  id: Generated<number>;
  org_id: number;
  checkout_id: string;
  provider: 'local' | 'stripe';
  num_departments: number;
  status: 'open' | 'complete' | 'expired';
  created_at: number;
  completed_at: number | null;
}

export interface BoardsTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  name_key: string;
  has_anonymous: Bool;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface BoardCardsTable {
  org_id: number;
  board_id: number;
  card_id: number;
  created_at: number;
}

/** Changed by triggers whenever the board view's answer may change (migration 0031, decision 0784). */
export interface BoardRevisionsTable {
  board_id: number;
  revision: number;
}

/** A board's revision per UTC day of completion, changed with the board's (migration 0032, decision 0786). */
export interface BoardDayRevisionsTable {
  board_id: number;
  /** Whole days from 1970-01-01 UTC to the evaluations' completed_at. */
  day: number;
  revision: number;
}

export interface CardsTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  name_key: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** Issue 13 (migration 0021): completing an evaluation needs a signature and a typed name. */
  sign_off_required: Generated<Bool>;
}

export interface CardItemsTable {
  id: Generated<number>;
  org_id: number;
  card_id: number;
  type: CardItemType;
  content: string;
  na: Bool;
  position: number;
  is_deleted: Bool;
  /** Issue 12 (migration 0013): a failed answer needs a photo / a note. */
  photo_on_fail: Generated<Bool>;
  note_on_fail: Generated<Bool>;
  created_at: number;
  updated_at: number;
}

export interface EvaluationsTable {
  id: Generated<number>;
  org_id: number;
  board_id: number;
  card_id: number;
  user_id: number | null;
  anon_key_id: number | null;
  user_name: string;
  board_name: string;
  card_name: string;
  /** nameKey() of the snapshot names, for case-insensitive search (migration 0003). */
  user_name_key: string;
  board_name_key: string;
  card_name_key: string;
  pass: Bool | null;
  has_feedback: Bool;
  started_at: number;
  completed_at: number | null;
  /** Issue 13 (migration 0021): the name typed under the signature. */
  signed_name: Generated<string | null>;
  /** Issue 14 (migration 0023): completed_at is the device's time, captured offline (decision 0730). */
  completed_on_device: Generated<Bool>;
  /** What the device said, kept even when it was not plausible. */
  device_completed_at: Generated<number | null>;
}

export interface ResultsTable {
  id: Generated<number>;
  org_id: number;
  evaluation_id: number;
  item_id: number;
  item_type: CardItemType;
  position: number;
  content: string;
  pass: Bool | null;
  text_result: string | null;
  numeric_result: number | null;
  na: Bool;
  /** Issue 12 (migration 0013). */
  note: Generated<string | null>;
}

/** Photos on an evaluation's item (issue 12, migration 0013); the files live in the storage. */
export interface ResultPhotosTable {
  id: Generated<number>;
  org_id: number;
  evaluation_id: number;
  item_id: number;
  storage_key: string;
  content_type: string;
  thumb_key: string;
  thumb_type: string;
  width: number;
  height: number;
  bytes: number;
  created_at: number;
}

export interface FeedbackTable {
  id: Generated<number>;
  org_id: number;
  evaluation_id: number | null;
  board_id: number;
  card_id: number | null;
  user_id: number | null;
  anon_key_id: number | null;
  user_name: string;
  board_name: string;
  card_name: string | null;
  /** nameKey() of the snapshot names ('' for no card), for case-insensitive search (migration 0003). */
  user_name_key: string;
  board_name_key: string;
  card_name_key: string;
  content: string;
  created_at: number;
  updated_at: number;
}

export interface DashboardsTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  name_key: string;
  is_default: Bool;
  created_at: number;
  updated_at: number;
}

export interface DashboardSettingsTable {
  id: Generated<number>;
  org_id: number;
  dashboard_id: number;
  board_id: number;
  card_id: number;
  card_item_id: number;
  start_number: number;
  start_duration: string;
  end_number: number;
  end_duration: string;
  time_division: string;
  type: string;
  graph_order: number;
  /** Migration 0024: 'Evaluations' or 'ScheduleCompliance' (decision 0704). */
  report: Generated<string>;
}

/**
 * Completed evaluations counted per organisation, board, card and UTC quarter-hour (`slot` =
 * completed_at / 900000), kept in the transactions that complete and delete evaluations (migration 0005).
 * board_id 0 / card_id 0: the totals over all boards / all cards (board 0 with a card: that card on every
 * board, since migration 0010).
 */
export interface EvaluationCountsTable {
  org_id: number;
  board_id: number;
  card_id: number;
  slot: number;
  passed: number;
  failed: number;
  /** Which of the row's shards (migration 0028, decision 0746): a range's figures are the sum of all its rows. */
  shard: ColumnType<number, number | undefined, number>;
}

/**
 * Completed evaluations per UTC hour (unit 1, slot = completed_at / 3600000) and UTC day (unit 2, slot =
 * completed_at / 86400000), at the levels of evaluation_counts (board 0 / card 0: all boards / all cards),
 * kept with it (migration 0010, docs/decisions/0582).
 */
export interface EvaluationTotalsTable {
  org_id: number;
  unit: number;
  board_id: number;
  card_id: number;
  slot: number;
  passed: number;
  failed: number;
  /** Which of the row's shards (migration 0028, decision 0746): a range's figures are the sum of all its rows. */
  shard: ColumnType<number, number | undefined, number>;
}

/**
 * Each item's answers per board (board_id 0: every board) and unit of time (migration 0027, decision
 * 0627): unit 0 the UTC quarter-hour (slot = completed_at / 900000), 1 the hour, 2 the day, 3 eight days
 * from the epoch; kind 1 for results of a Pass/Fail item, 0 for other items' N/As. Kept with
 * evaluation_counts by countItemResults.
 */
export interface ItemTotalsTable {
  org_id: number;
  board_id: number;
  item_id: number;
  unit: number;
  slot: number;
  kind: number;
  passed: number;
  failed: number;
  na: number;
  answers: number;
  /** Which of the row's shards (migration 0028, decision 0746): a range's figures are the sum of all its rows. */
  shard: ColumnType<number, number | undefined, number>;
}

/** A completed evaluation whose results are not yet folded into item_totals (migration 0029, decision 0751). */
export interface ItemTotalsPendingTable {
  evaluation_id: number;
  org_id: number;
}

export interface AnonymousKeysTable {
  id: Generated<number>;
  org_id: number;
  board_id: number;
  period: number;
  key_hash: string;
  created_at: number;
  revoked_at: number | null;
}

export interface ApiTokensTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  name: string;
  access: 'read' | 'write';
  token_hash: string;
  prefix: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  window_start: Generated<number>;
  window_count: Generated<number>;
}

/** An organisation's OpenID Connect sign-in (docs/decisions/0720); at most one row per organisation. */
export interface SsoSettingsTable {
  id: Generated<number>;
  org_id: number;
  enabled: number;
  issuer: string;
  client_id: string;
  /** Never answered to the browser: the settings call says only whether it is set. */
  client_secret: string | null;
  default_role: 'viewer' | 'evaluator' | 'admin';
  /** Lower-case domains, comma-separated; empty for any domain. */
  allowed_domains: string;
  require_sso: number;
  created_at: number;
  updated_at: number;
}

/** One sign-in in flight: found by the hash of its state, used once, short-lived. */
export interface SsoStatesTable {
  id: Generated<number>;
  org_id: number;
  state_hash: string;
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  org_id: number;
  url: string;
  description: string;
  /** The events, comma-separated. */
  events: string;
  secret: string;
  enabled: 0 | 1;
  created_at: number;
  deleted_at: number | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  org_id: number;
  endpoint_id: number;
  delivery_id: string;
  event: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: number;
  give_up_at: number;
  next_attempt_at: number | null;
  lease_until: number | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_response: string | null;
}

export interface ActionPhotosTable {
  id: Generated<number>;
  org_id: number;
  action_id: number;
  user_id: number | null;
  storage_key: string;
  content_type: string;
  thumb_key: string;
  thumb_type: string;
  width: number;
  height: number;
  bytes: number;
  created_at: number;
}

export interface IdempotencyRecordsTable {
  id: Generated<number>;
  scope: string;
  idem_key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: number;
}

/** Corrective actions (issue 12, migration 0015). Status and priority are stored as the wire's words. */
export interface ActionsTable {
  id: Generated<number>;
  org_id: number;
  board_id: number;
  board_name: string;
  evaluation_id: number | null;
  card_id: number | null;
  card_name: string | null;
  item_id: number | null;
  title: string;
  description: string;
  status: ActionStatus;
  priority: ActionPriority;
  /** YYYY-MM-DD, a day in time_zone. */
  due_date: string;
  time_zone: string;
  assignee_id: number;
  raised_by_id: number;
  raised_by_name: string;
  close_note: string | null;
  closed_at: number | null;
  created_at: number;
  updated_at: number;
  /** The reminders' claims: set by the one process that sends each (docs/decisions/0671). */
  due_reminded_at: number | null;
  overdue_reminded_at: number | null;
}

export interface ActionHistoryTable {
  id: Generated<number>;
  org_id: number;
  action_id: number;
  user_id: number | null;
  user_name: string;
  event: 'Raised' | 'Edited' | 'Done' | 'Cancelled';
  /** JSON: [{field, from, to}]. */
  changes: string;
  note: string | null;
  created_at: number;
}

/** An evaluation's signature (issue 13, migration 0021): a PNG in the storage. */
export interface EvaluationSignaturesTable {
  id: Generated<number>;
  org_id: number;
  evaluation_id: number;
  storage_key: string;
  width: number;
  height: number;
  bytes: number;
  created_at: number;
}

/** A share link to one evaluation's report (issue 13, migration 0021): the token's SHA-256 only. */
export interface ReportLinksTable {
  id: Generated<number>;
  org_id: number;
  evaluation_id: number;
  token_hash: string;
  token_prefix: string;
  created_by_id: number | null;
  created_by_name: string;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  created_at: number;
}

export interface AppSettingsTable {
  name: string;
  value: string;
}

/** One running export per organisation (decision 0621). */
export interface ExportLeasesTable {
  org_id: number;
  holder: string;
  expires_at: number;
}

/** Schedules (issue 13, migration 0020): a card's rule on a board, in the organisation's zone. */
export interface SchedulesTable {
  id: Generated<number>;
  org_id: number;
  board_id: number;
  card_id: number;
  /** An RRULE over days (common/schedules.ts). */
  rule: string;
  /** YYYY-MM-DD local days. */
  start_date: string;
  end_date: string | null;
  /** Minutes after local midnight, [0, 1440]. */
  window_start: number;
  window_end: number;
  created_by_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface ScheduleAssigneesTable {
  org_id: number;
  schedule_id: number;
  user_id: number;
}

/** What was sent about an occurrence: the claim is the row (decision 0702). */
/** One reminder to one assignee (migration 0025, decision 0714): its row is its claim. */
export interface ScheduleNoticeRecipientsTable {
  org_id: number;
  schedule_id: number;
  occurrence_start: number;
  kind: 'open' | 'missed';
  user_id: number;
  claimed_by: string;
  sent_at: number | null;
  created_at: number;
}

/** One day's missed-checks digest to one administrator or owner (migration 0025, decision 0714). */
export interface ScheduleDigestRecipientsTable {
  org_id: number;
  day: string;
  user_id: number;
  claimed_by: string;
  sent_at: number | null;
  created_at: number;
}

export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  one_time_tokens: OneTimeTokensTable;
  rate_limit_events: RateLimitEventsTable;
  rate_limit_windows: RateLimitWindowsTable;
  job_runs: JobRunsTable;
  checkouts: CheckoutsTable;
  boards: BoardsTable;
  board_cards: BoardCardsTable;
  board_revisions: BoardRevisionsTable;
  board_day_revisions: BoardDayRevisionsTable;
  cards: CardsTable;
  card_items: CardItemsTable;
  evaluations: EvaluationsTable;
  results: ResultsTable;
  result_photos: ResultPhotosTable;
  feedback: FeedbackTable;
  dashboards: DashboardsTable;
  dashboard_settings: DashboardSettingsTable;
  anonymous_keys: AnonymousKeysTable;
  api_tokens: ApiTokensTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  action_photos: ActionPhotosTable;
  sso_settings: SsoSettingsTable;
  sso_states: SsoStatesTable;
  evaluation_counts: EvaluationCountsTable;
  evaluation_totals: EvaluationTotalsTable;
  item_totals: ItemTotalsTable;
  item_totals_pending: ItemTotalsPendingTable;
  idempotency_records: IdempotencyRecordsTable;
  app_settings: AppSettingsTable;
  export_leases: ExportLeasesTable;
  actions: ActionsTable;
  action_history: ActionHistoryTable;
  evaluation_signatures: EvaluationSignaturesTable;
  report_links: ReportLinksTable;
  schedules: SchedulesTable;
  schedule_assignees: ScheduleAssigneesTable;
  schedule_notice_recipients: ScheduleNoticeRecipientsTable;
  schedule_digest_recipients: ScheduleDigestRecipientsTable;
}
