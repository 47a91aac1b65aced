/**
 * A per-address limit on the calls anyone can make with a key from a QR code (the -anon calls), in fixed
 * one-minute windows counted in the database (takeWindowSlot), so every app process shares one count
 * (decision 0600). Behind a proxy, TRUST_PROXY=true makes the address the client's.
 */
export const ANONYMOUS_CALLS_PER_MINUTE = 120;
export const ANONYMOUS_WINDOW_MS = 60_000;
export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a minute and try again.';

export const anonymousBucket = (address: string) => `anon:${address}`;
