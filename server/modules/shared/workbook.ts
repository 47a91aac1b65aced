/**
 * Streamed .xlsx exports (docs/decisions/0204-excel-export.md): rows are read from the database in keyset
 * batches and written through our own streaming writer (xlsxWriter.ts, decision 0744) into the stream the
 * client downloads, so memory stays flat whatever the export's size. Strings are always written as text,
 * never as formulas, whatever they start with.
 */
import { PassThrough, type Readable } from 'node:stream';
import { tzOffset } from '@date-fns/tz';
import type { FastifyBaseLogger } from 'fastify';
import { PRODUCT_NAME } from '../../../common/constants.ts';
import { badRequest } from '../../errors.ts';
import type { FileAnswer } from '../../http/handlers.ts';
import { XlsxWriter, type CellValue, type Column } from './xlsxWriter.ts';

export type { CellValue, Column, LinkValue } from './xlsxWriter.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** How the exports show dates and times in Excel. */
export const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
export const workbookMessages = { unknownTimeZone: 'Unknown time zone.' };

/** Times in the requested IANA zone (or UTC): an Excel date has no zone, so it is written as wall time. */
export class WallClock {
  readonly timeZone: string;
  private readonly utc: boolean;
  private readonly offsets = new Map<number, number>();

  constructor(timeZone: string | undefined) {
    this.timeZone = timeZone ?? 'UTC';
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: this.timeZone });
    } catch {
      throw badRequest(workbookMessages.unknownTimeZone, 'timeZone');
    }
    this.utc = this.timeZone === 'UTC' || this.timeZone === 'Etc/UTC';
  }

  /** A Date whose UTC fields are the wall time in the zone (what the writer writes as the Excel date). */
  wall(ms: number): Date {
    if (this.utc) return new Date(ms);
    // Offsets change at most on quarter hours: one Intl lookup per quarter hour of data.
    const quarter = Math.floor(ms / 900_000);
    let offset = this.offsets.get(quarter);
    if (offset === undefined) {
      offset = tzOffset(this.timeZone, new Date(ms)) * 60_000;
      if (this.offsets.size > 100_000) this.offsets.clear();
      this.offsets.set(quarter, offset);
    }
    return new Date(ms + offset);
  }

  /** `YYYY-MM-DD_HH-mm-ss` of the wall time, for file names. */
  stamp(ms: number): string {
    return this.wall(ms).toISOString().slice(0, 19).replace('T', '_').replaceAll(':', '-');
  }
}

export function exportFilename(
  kind: 'Evaluations' | 'Feedback' | 'Actions',
  clock: WallClock,
  now: number,
): string {
  return `${PRODUCT_NAME}_${kind}_${clock.stamp(now)}.xlsx`;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const BLOCK_TAG = /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|table|blockquote|pre)\b[^>]*>/gi;
const plainTextCache = new Map<string, string>();
/** The cache is emptied past this many characters (keys and texts), whatever the items' lengths. */
const PLAIN_TEXT_CACHE_CHARS = 4_000_000;
let plainTextCacheChars = 0;

/** Card item content (sanitised HTML) as the plain text a spreadsheet cell holds. */
export function plainText(html: string): string {
  const cached = plainTextCache.get(html);
  if (cached !== undefined) return cached;
  const text = html
    .replace(BLOCK_TAG, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
  if (
    plainTextCache.size >= 20_000 ||
    plainTextCacheChars + html.length + text.length > PLAIN_TEXT_CACHE_CHARS
  ) {
    plainTextCache.clear();
    plainTextCacheChars = 0;
  }
  plainTextCache.set(html, text);
  plainTextCacheChars += html.length + text.length;
  return text;
}

class ClientGone extends Error {}

/**
 * A FileAnswer whose body is the workbook, written as `batches` yields rows. The first batch is read before
 * answering, so a failing query is an error answer rather than a broken download.
 */
export async function streamWorkbook(options: {
  filename: string;
  sheetName: string;
  columns: Column[];
  batches: AsyncIterator<Iterable<CellValue[]>>;
  log: FastifyBaseLogger;
  /** The request's time: the file's own (its properties and its entries' times). Default now. */
  now?: number;
}): Promise<FileAnswer> {
  const { batches, log } = options;
  const first = await batches.next();

  const out = new PassThrough();
  let writer: XlsxWriter | undefined;
  const write = async () => {
    writer = new XlsxWriter(out, {
      sheetName: options.sheetName,
      columns: options.columns,
      creator: PRODUCT_NAME,
      dateFormat: DATE_FORMAT,
      ...(options.now === undefined ? {} : { now: new Date(options.now) }),
    });
    let result = first;
    while (!result.done) {
      for (const values of result.value) {
        if (out.destroyed) throw new ClientGone();
        // True every ~64 KB of sheet XML: let the response and the deflater have their turn, and wait while
        // more than the backlog limit (1 MB) is unsent (backpressure).
        if (writer.addRow(values)) await writer.drained();
      }
      result = await batches.next();
    }
    await writer.end();
  };
  write().catch(async (error: unknown) => {
    writer?.destroy();
    await Promise.resolve(batches.return?.()).catch(() => {});
    if (error instanceof ClientGone) return;
    log.error({ err: error }, 'Excel export failed');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });

  return { file: { filename: options.filename, contentType: XLSX_CONTENT_TYPE, body: out as Readable } };
}
