/**
 * Evidence on results (issue 12): photos and a short note on an item's result. The limits, messages and
 * the "required on Fail" rule live here once: the server enforces them, the browser shows them before
 * submit (docs/decisions/0640-evidence-on-results.md).
 */
import type { CardItemType } from './api/entities.ts';

export const PHOTOS_PER_RESULT_MAX = 5;
/** What the server takes, before its own resizing (the browser shrinks first, so this is rarely reached). */
export const PHOTO_BYTES_MAX = 10 * 1024 * 1024;
/** The longest side of a stored photo: the browser shrinks to it before upload, the server after. */
export const PHOTO_LONGEST_SIDE = 2048;
export const THUMBNAIL_LONGEST_SIDE = 320;
export const NOTE_MAX = 1_000;

/** The types a photo or note can be given on (instructions are read, not answered). */
export const EVIDENCE_ITEM_TYPES: readonly CardItemType[] = ['pass_fail', 'text', 'numeric'];
export const takesEvidence = (type: CardItemType) => EVIDENCE_ITEM_TYPES.includes(type);

/** The image types the server stores (checked by content, never by name or declared type). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
/** What an upload may declare as its Content-Type; the content decides anyway. */
export const UPLOAD_CONTENT_TYPE = /^(image\/[\w.+-]+|application\/octet-stream)\s*(;|$)/i;

export const PHOTO_SIZES = ['full', 'thumb'] as const;
export type PhotoSize = (typeof PHOTO_SIZES)[number];

export const evidenceMessages = {
  tooLarge: `A photo can be at most ${PHOTO_BYTES_MAX / 1024 / 1024} MB.`,
  notAnImage: 'This file is not a photo. Please choose a JPEG, PNG, WebP or HEIC image.',
  heicUnreadable:
    'This HEIC photo cannot be read here. Please choose a JPEG, PNG or WebP image (on an iPhone: Settings › Camera › Formats › Most Compatible).',
  emptyUpload: 'The photo is empty. Please choose it again.',
  uploadType:
    'Photos must be sent as image data (Content-Type image/jpeg, image/png, image/webp or image/heic).',
  tooMany: `An item can have at most ${PHOTOS_PER_RESULT_MAX} photos.`,
  noEvidence: 'This item does not take photos.',
  photoNotFound: 'The photo was not found.',
  noteTooLong: `A note must be at most ${NOTE_MAX} characters long.`,
} as const;

/** The item's content as plain text, short enough for a message ("Guards are in place"). */
export function itemLabel(content: string, max = 60): string {
  const text = content
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return 'Untitled item';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export const photoRequiredMessage = (content: string) =>
  `Add a photo to the failed item "${itemLabel(content)}".`;
export const noteRequiredMessage = (content: string) =>
  `Add a note to the failed item "${itemLabel(content)}".`;

export interface EvidenceRule {
  type: CardItemType;
  content: string;
  photoOnFail: boolean;
  noteOnFail: boolean;
}

export interface EvidenceGiven {
  /** The Pass/Fail answer: false when failed (N/A or unanswered is not a fail). */
  failed: boolean;
  note: string | null | undefined;
  photos: number;
}

/**
 * What a failed item still lacks: the first missing piece's message, or null when it is complete. The
 * options apply to Pass/Fail items only (the other types never fail).
 */
export function missingEvidence(item: EvidenceRule, given: EvidenceGiven): string | null {
  if (item.type !== 'pass_fail' || !given.failed) return null;
  if (item.photoOnFail && given.photos < 1) return photoRequiredMessage(item.content);
  if (item.noteOnFail && !given.note?.trim()) return noteRequiredMessage(item.content);
  return null;
}

/** Where the browser reads a photo (signed-in: the session cookie goes with the image request). */
export function photoPath(photoId: number, size: PhotoSize): string {
  return `/api/get-result-photo?photoID=${photoId}&size=${size}`;
}

export function anonymousPhotoPath(
  key: { orgName: string; boardID: number; anonKey: string },
  photoId: number,
  size: PhotoSize,
): string {
  const q = new URLSearchParams({
    orgName: key.orgName,
    boardID: String(key.boardID),
    anonKey: key.anonKey,
    photoID: String(photoId),
    size,
  });
  return `/api/get-result-photo-anon?${q.toString()}`;
}
