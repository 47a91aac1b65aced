/**
 * The limit on PDF report generation (issue 13, docs/decisions/0715): each report costs about a second of
 * CPU, so each is counted in the database-backed one-minute windows of takeWindowSlot (shared by every
 * process, decision 0600) — per member and per organisation for members' downloads, per client address
 * and per organisation for share links — and refused with 429, the existing rate-limit message and
 * Retry-After when a count is over its limit.
 */
import { takeWindowSlot } from '../../auth/rateLimit.ts';
import type { CallContext } from '../../context.ts';
import { tooManyRequests } from '../../errors.ts';
import {
  RATE_LIMITED_MESSAGE,
  REPORT_WINDOW_MS,
  reportBuckets,
  secondsLeftInWindow,
} from '../../http/rateLimit.ts';

export type ReportRequester = { kind: 'member'; userId: number } | { kind: 'link'; address: string };

/** Takes one report slot of each bucket that applies, or throws 429 at the first that is full. */
export async function takeReportSlots(ctx: CallContext, orgId: number, requester: ReportRequester) {
  const limits = ctx.config.reportsPerMinute;
  const buckets =
    requester.kind === 'member'
      ? [{ bucket: reportBuckets.member(requester.userId), max: limits.member }]
      : [{ bucket: reportBuckets.address(requester.address), max: limits.address }];
  buckets.push({ bucket: reportBuckets.org(orgId), max: limits.org });
  for (const { bucket, max } of buckets) {
    if (!(await takeWindowSlot(ctx.db, bucket, REPORT_WINDOW_MS, ctx.now, max)))
      throw tooManyRequests(RATE_LIMITED_MESSAGE, secondsLeftInWindow(ctx.now, REPORT_WINDOW_MS));
  }
}
