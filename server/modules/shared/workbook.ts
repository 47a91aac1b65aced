/**
 * Streamed .xlsx exports (docs/decisions/0204-excel-export.md): rows are read from the database in keyset
 * batches and written through exceljs's streaming WorkbookWriter into the stream the client downloads, so
 * memory stays flat whatever the export's size. Strings are written as plain string values, never as
 * formulas, whatever they start with.
 */
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { tzOffset } from '@date-fns/tz';
import type { FastifyBaseLogger } from 'fastify';
import { PRODUCT_NAME } from '../../../common/constants.ts';
import { badRequest } from '../../errors.ts';
import type { FileAnswer } from '../../http/handlers.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** How the exports show dates and times in Excel. */
export const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
export const workbookMessages = { unknownTimeZone: 'Unknown time zone.' };

/** A cell: text (always a plain string cell), a number, a date, or nothing. */
/** A hyperlink cell (issue 12: a link to each photo); its address is the server's own, never a user's text. */
export interface LinkValue {
  text: string;
  hyperlink: string;
}
export type CellValue = string | number | Date | LinkValue | null;

export interface Column {
  header: string;
  width: number;
  /** An Excel number format, for date columns. */
  numFmt?: string;
}

const ROWS_PER_YIELD = 100;
// Unsent, compressed-or-not bytes the export may hold before it waits for the client (backpressure).
const BACKLOG_LIMIT = 1024 * 1024;

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

  /** A Date whose UTC fields are the wall time in the zone (what exceljs writes as the Excel date). */
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
  if (plainTextCache.size > 20_000) plainTextCache.clear();
  plainTextCache.set(html, text);
  return text;
}

/** Resolves after the event loop has turned, and only once the zip's backlog is small (or the client left). */
async function pace(entry: { _writableState?: { length: number } } | undefined, out: PassThrough) {
  await new Promise((resolve) => setImmediate(resolve));
  // exceljs's worksheet stream writes into the zip entry without heeding backpressure: wait on it here.
  while (
    !out.destroyed &&
    ((entry?._writableState?.length ?? 0) > BACKLOG_LIMIT || out.readableLength > BACKLOG_LIMIT)
  ) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
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
}): Promise<FileAnswer> {
  const { batches, log } = options;
  const first = await batches.next();

  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    // Shared strings would keep every distinct text in memory until the end.
    useSharedStrings: false,
    // Fast compression: the export is CPU-bound, and level 1 is within ~20% of the default's size.
    zip: { zlib: { level: 1 } },
  });
  workbook.creator = PRODUCT_NAME;
  const sheet = workbook.addWorksheet(options.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = options.columns.map((column) => ({
    header: column.header,
    width: column.width,
    ...(column.numFmt ? { style: { numFmt: column.numFmt } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  const write = async () => {
    let written = 0;
    let result = first;
    const entry = () =>
      (sheet as unknown as { stream?: { pipes?: { _writableState?: { length: number } }[] } }).stream
        ?.pipes?.[0];
    while (!result.done) {
      for (const values of result.value) {
        if (out.destroyed) throw new ClientGone();
        sheet.addRow(values).commit();
        if (++written % ROWS_PER_YIELD === 0) await pace(entry(), out);
      }
      result = await batches.next();
    }
    sheet.commit();
    await workbook.commit();
  };
  // The zip keeps writing into `out` after a client has gone; its complaints are expected then.
  (workbook as unknown as { zip: NodeJS.EventEmitter }).zip.on('error', (error: Error) => {
    if (!out.destroyed) out.destroy(error);
  });
  write().catch(async (error: unknown) => {
    await Promise.resolve(batches.return?.()).catch(() => {});
    if (error instanceof ClientGone) return;
    log.error({ err: error }, 'Excel export failed');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });

  return { file: { filename: options.filename, contentType: XLSX_CONTENT_TYPE, body: out as Readable } };
}
