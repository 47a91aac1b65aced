/** Business constants of SPEC §9, with the values docs/product-decisions.md gives to those SPEC names without values. */

export const PRODUCT_NAME = 'Checkboard';

// Client timers
export const SESSION_COOKIE_CHECK_MS = 5_000;
export const TOKEN_REFRESH_MS = 240_000;
export const VERSION_CHECK_MS = 5 * 60_000;
export const RELOAD_COUNTDOWN_S = 30;
export const BOARDS_AND_CARDS_REFRESH_MS = 120_000;
export const DELETED_CARDS_REFRESH_MS = 120_000;
export const EVALUATIONS_REFRESH_MS = 30_000;
export const ANONYMOUS_KEY_REFRESH_MS = 60_000;

// Client request layer (SPEC §7, last bullet)
export const REQUEST_TIMEOUT_MS = 120_000;
export const REQUEST_MAX_RETRIES = 3;
export const REQUEST_RETRY_BASE_MS = 300;
export const RETRY_STATUSES: readonly number[] = [408, 502, 503, 504, 522, 524];

// Names and fields
export const NAME_MIN = 5;
export const NAME_MAX = 50;
export const ITEM_NAME_MIN = 1;
export const ITEM_NAME_MAX = 100;
export const SHORT_NAME_MIN = 1;
export const SHORT_NAME_MAX = 30;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const EMAIL_MIN = 5;
export const EMAIL_MAX = 200;
export const FEEDBACK_MAX = 5_000;
export const CARD_ITEM_CONTENT_MAX = 20_000;

// Boards and cards
export const MAX_CARDS_PER_BOARD = 15;
export const MAX_ITEMS_PER_CARD = 100;
export const CARDS_PER_DEPARTMENT = 15;
export const PICKER_SEARCH_THRESHOLD = 10;

// Evaluations
export const EVALUATION_WINDOW_DAYS = 31;
export const DELETED_CARDS_WINDOW_DAYS = 31;
export const LAST_EVALUATIONS_COUNT = 3;
export const SQUARES_PER_GROUP = 3;
export const CALENDAR_DAYS = 28;
/** A calendar day's squares per card on the board view (one group); more show as '+n' (decision 0620). */
export const BOARD_SQUARES_PER_DAY = 3;
export const SEARCH_PAGE_DEFAULT = 48;
export const SEARCH_PAGE_MAX = 200;
export const UNFINISHED_EVALUATION_PURGE_MS = 24 * 60 * 60_000;

// Anonymous evaluation
export const ANONYMOUS_KEY_ROTATION_MINUTES_DEFAULT = 60;
export const ANONYMOUS_EVALUATION_GRACE_MS = 12 * 60 * 60_000;
export const ANONYMOUS_USER_NAME = 'Anonymous';
export const QR_MODULE_SIZE = 0;
export const QR_MARGIN = 2;

// Billing
export const DEPARTMENTS_MIN = 1;
export const DEPARTMENTS_MAX = 500;
export const PRICE_PER_DEPARTMENT_USD = 10;

// Analytics
export const GRAPHS_PER_DASHBOARD_MAX = 24;

// Sessions and one-time tokens (docs/product-decisions.md)
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
export const RESET_TOKEN_TTL_MS = 60 * 60_000;
export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60_000;
export const INVITE_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;
export const LOGIN_FAILURES_MAX = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

// Idempotency
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Longer keys are refused, never cut (two keys cut to one would collide). */
export const IDEMPOTENCY_KEY_MAX = 200;

/** Grid columns of the anonymous boards page (SPEC §9). */
export function anonymousGridColumns(boardCount: number): number {
  if (boardCount <= 4) return 2;
  if (boardCount <= 9) return 3;
  if (boardCount >= 33) return 12;
  return Math.ceil(boardCount / 3);
}

/**
 * Evaluations captured offline (issue 14, docs/decisions/0730): the device's completion time is kept when it
 * is no older than this and not in the future (beyond a small clock difference); otherwise the server's.
 */
export const DEVICE_TIME_MAX_AGE_MS = 7 * 24 * 60 * 60_000;
export const DEVICE_TIME_SKEW_MS = 2 * 60_000;

/** The longest range get-schedule-compliance counts (docs/decisions/0703, 0704). */
export const COMPLIANCE_RANGE_MAX_DAYS = 366;
