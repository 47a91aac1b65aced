/** Request parts shared by several calls. */
import { z } from 'zod';
import { FEEDBACK_MAX, SEARCH_PAGE_DEFAULT, SEARCH_PAGE_MAX } from '../constants.ts';
import { evidenceMessages, NOTE_MAX } from '../evidence.ts';
import { SIGNED_NAME_MAX, signOffMessages } from '../signOff.ts';
import { dateTime, id } from './entities.ts';
import { messages } from '../fieldRules.ts';

export const resultInput = z.strictObject({
  item_id: id,
  pass: z.boolean().nullable().optional(),
  text_result: z.string().max(5_000).nullable().optional(),
  numeric_result: z.number().finite().nullable().optional(),
  na: z.boolean().optional(),
  /** Our addition (issue 12): a short note on the item; blank is no note. */
  note: z.string().max(NOTE_MAX, evidenceMessages.noteTooLong).nullable().optional(),
});
export type ResultInput = z.infer<typeof resultInput>;

/** The name typed under a signature (issue 13): trimmed by the server, blank is no name. */
export const signedName = z.string().max(SIGNED_NAME_MAX, signOffMessages.nameTooLong);

export const feedbackContent = z
  .string()
  .trim()
  .min(1, messages.feedbackLength)
  .max(FEEDBACK_MAX, messages.feedbackLength);

/** An IANA time zone name; the server refuses one it does not know ('Unknown time zone.'). */
export const timeZone = z.string().min(1).max(100);

const nameFilter = z.string().max(100).optional();

/** The filter and keyset cursor shared by the search calls and the Excel exports (docs/product-decisions.md). */
export const searchRequest = z.strictObject({
  isEditing: z.boolean().optional(),
  previousDateTime: dateTime.nullable().optional(),
  previousID: id.nullable().optional(),
  maxDateTime: dateTime.nullable().optional(),
  quantity: z.number().int().min(1).max(SEARCH_PAGE_MAX).default(SEARCH_PAGE_DEFAULT),
  startDateTime: dateTime.nullable().optional(),
  endDateTime: dateTime.nullable().optional(),
  boardName: nameFilter,
  cardName: nameFilter,
  userName: nameFilter,
});
export type SearchRequest = z.output<typeof searchRequest>;

/**
 * The exports take the search filter (their cursor and page size are ignored: they export every matching
 * row up to maxDateTime) and, our addition, the IANA time zone their dates are written in (default UTC).
 */
export const exportRequest = searchRequest.extend({
  timeZone: timeZone.optional(),
});
export type ExportRequest = z.output<typeof exportRequest>;
