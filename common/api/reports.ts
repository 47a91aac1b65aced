/**
 * Sign-off and reports (issue 13, docs/decisions/0710-0713): an evaluation's signature, its PDF report, and
 * share links that open the report without signing in. Additions to SPEC §7.
 */
import { z } from 'zod';
import { PAPER_SIZES } from '../signOff.ts';
import { defineCall } from './define.ts';
import { dateTime, id, reportLink, signature } from './entities.ts';

/** Query-string fields arrive as text: ids are read as whole numbers, strictly. */
const queryId = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value),
  id,
);
const paper = z.enum(PAPER_SIZES).default('a4');

export const addEvaluationSignature = defineCall({
  path: '/api/add-evaluation-signature',
  method: 'POST',
  access: 'evaluator',
  mutates: true,
  upload: 'signature',
  request: z.strictObject({ evalID: queryId }),
  response: z.object({ signature }),
  failMsg: 'Unable to add the signature. Please try again.',
});

export const addEvaluationSignatureAnon = defineCall({
  path: '/api/add-evaluation-signature-anon',
  method: 'POST',
  access: 'anonymous',
  mutates: true,
  upload: 'signature',
  request: z.strictObject({
    orgName: z.string().min(1).max(200),
    boardID: queryId,
    anonKey: z.string().min(1).max(200),
    evalID: queryId,
  }),
  response: z.object({ signature }),
  failMsg: 'Unable to add the signature. Please try again.',
});

export const getEvaluationReport = defineCall({
  path: '/api/evaluations/report.pdf',
  method: 'GET',
  access: 'member',
  mutates: false,
  file: true,
  document: true,
  request: z.strictObject({ evalID: queryId, paper }),
  response: z.unknown(),
  failMsg: 'Unable to make the report. Please try again later.',
  // Limited per member and organisation (decision 0715): 429, RATE_LIMITED_MESSAGE, Retry-After.
});

export const getReportLinks = defineCall({
  path: '/api/get-report-links',
  method: 'POST',
  access: 'admin',
  mutates: false,
  request: z.strictObject({ evalID: id }),
  response: z.object({ links: z.array(reportLink) }),
  failMsg: 'Unable to get the share links. Please try again later.',
});

export const addReportLink = defineCall({
  path: '/api/add-report-link',
  method: 'POST',
  access: 'admin',
  mutates: true,
  /** The answer holds the token, shown once: a retried request is refused rather than replayed. */
  secretAnswer: true,
  request: z.strictObject({ evalID: id, expiresAt: dateTime.nullable().optional() }),
  response: z.object({ link: reportLink, token: z.string(), url: z.string() }),
  failMsg: 'Unable to make the share link. Please try again.',
});

export const revokeReportLink = defineCall({
  path: '/api/revoke-report-link',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ id }),
  response: z.object({ link: reportLink }),
  failMsg: 'Unable to revoke the share link. Please try again.',
});

export const getSharedReport = defineCall({
  path: '/api/shared/report.pdf',
  method: 'GET',
  access: 'public',
  mutates: false,
  file: true,
  document: true,
  /**
   * Anyone holding a link: counted per address like the -anon calls, and the reports it makes per
   * address and per organisation (decision 0715).
   */
  perAddressLimit: true,
  request: z.strictObject({ token: z.string().min(1).max(200), paper }),
  response: z.unknown(),
  failMsg: 'Unable to open the report. Please try again later.',
});
