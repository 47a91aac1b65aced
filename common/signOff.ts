/**
 * Sign-off and reports (issue 13, docs/decisions/0710-0713): the limits and messages of a signature and the
 * typed name, and the rule that a card requiring sign-off is completed only with both. The server enforces
 * it; the browser shows the same messages before Submit.
 */

/** A signature is a small PNG drawn in the browser: a few tens of KB; more is not a signature. */
export const SIGNATURE_BYTES_MAX = 512 * 1024;
/** The largest canvas the server takes (a phone at 3x device pixels fits). */
export const SIGNATURE_SIDE_MAX = 4000;
export const SIGNED_NAME_MAX = 100;

/** Report paper sizes: A4 by default, US Letter on request. */
export const PAPER_SIZES = ['a4', 'letter'] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

export const signOffMessages = {
  missingBoth: 'This card needs a sign-off: sign in the signature box and type your name before submitting.',
  missingSignature: 'This card needs a sign-off: sign in the signature box before submitting.',
  missingName: 'This card needs a sign-off: type your name under the signature before submitting.',
  nameTooLong: `The name under the signature must be at most ${SIGNED_NAME_MAX} characters long.`,
  tooLarge: `A signature can be at most ${SIGNATURE_BYTES_MAX / 1024} KB.`,
  notPng: 'The signature must be a PNG image.',
  tooWide: `A signature can be at most ${SIGNATURE_SIDE_MAX} pixels wide or high.`,
  empty: 'The signature is empty. Please sign again.',
  uploadType: 'A signature must be sent as PNG image data (Content-Type image/png).',
  needsNetwork:
    'This card needs a sign-off, which is sent over the network: submit again when this device is back online.',
} as const;

/**
 * What a completion of a card requiring sign-off lacks, as the message to show, or null. A name is given
 * when it has a non-blank character.
 */
export function missingSignOff(
  required: boolean,
  given: { signature: boolean; signedName: string | null | undefined },
): string | null {
  if (!required) return null;
  const name = Boolean(given.signedName?.trim());
  if (!given.signature && !name) return signOffMessages.missingBoth;
  if (!given.signature) return signOffMessages.missingSignature;
  if (!name) return signOffMessages.missingName;
  return null;
}

/** Share links: made by administrators, never longer than a year; tokens are `cbr_` + 256 random bits. */
export const REPORT_LINK_DAYS_MAX = 366;
export const REPORT_LINK_PREFIX = 'cbr_';

export const reportMessages = {
  evaluationNotFound: 'The evaluation was not found.',
  linkNotFound: 'The share link was not found.',
  linkInvalid: 'This report link is not valid, has expired or was revoked.',
  expiryPast: 'The expiry must be in the future.',
  expiryTooFar: `A share link can last at most ${REPORT_LINK_DAYS_MAX} days.`,
} as const;
