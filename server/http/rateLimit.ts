/**
 * A per-address limit on the calls anyone can make with a key from a QR code (the -anon calls), in fixed
 * one-minute windows counted in the database (takeWindowSlot), so every app process shares one count
 * (decision 0600). Behind a proxy, TRUST_PROXY=true makes the address the client's.
 */
export const ANONYMOUS_CALLS_PER_MINUTE = 120;
export const ANONYMOUS_WINDOW_MS = 60_000;
export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a minute and try again.';

export const anonymousBucket = (address: string) => `anon:${address}`;

/** Seconds until the fixed window of `windowMs` that holds `now` ends: the 429's Retry-After. */
export const secondsLeftInWindow = (now: number, windowMs: number) =>
  Math.max(1, Math.ceil((Math.floor(now / windowMs) * windowMs + windowMs - now) / 1000));

/**
 * PDF reports (issue 13, decision 0715): each costs about a second of CPU, so they are counted in the same
 * database-backed one-minute windows, per member, per organisation and per client address (share links).
 * Defaults an auditor's real work never reaches; REPORTS_PER_MINUTE_* change them.
 */
export const REPORTS_PER_MINUTE_PER_MEMBER = 30;
export const REPORTS_PER_MINUTE_PER_ORG = 120;
export const REPORTS_PER_MINUTE_PER_ADDRESS = 20;
export const REPORT_WINDOW_MS = 60_000;
export const reportBuckets = {
  member: (userId: number) => `report:user:${userId}`,
  org: (orgId: number) => `report:org:${orgId}`,
  address: (address: string) => `report:addr:${address}`,
};
