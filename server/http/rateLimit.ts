/**
 * A per-address limit on the calls anyone can make with a key from a QR code (the -anon calls). Fixed
 * one-minute windows, kept in this process's memory: it bounds abuse from one address without a database
 * write per request. Behind a proxy, TRUST_PROXY=true makes the address the client's.
 */
export const ANONYMOUS_CALLS_PER_MINUTE = 120;
export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a minute and try again.';

export class AddressRateLimit {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts a request; false when the address is over its limit for this window. */
  take(address: string, now: number): boolean {
    const window = this.windows.get(address);
    if (!window || now - window.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.sweep(now);
      this.windows.set(address, { start: now, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= this.limit;
  }

  private sweep(now: number) {
    for (const [address, window] of this.windows)
      if (now - window.start >= this.windowMs) this.windows.delete(address);
  }
}
