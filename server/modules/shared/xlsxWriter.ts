/**
 * Our own streaming .xlsx writer (decision 0744): one worksheet written row by row into a ZipStream, for the
 * Excel exports. It writes the smallest workbook Excel, LibreOffice and exceljs open: content types,
 * relationships, document properties, the workbook, a style sheet (default, bold header, hyperlink, one date
 * style per number format) and the sheet, whose header row is bold and frozen. Text is always an inline
 * string (never a shared string, never a formula, whatever it starts with); numbers are numbers; dates are
 * Excel serial numbers of the Date's UTC fields (the callers give wall time, see WallClock); null is no cell;
 * a LinkValue is its text with an external hyperlink. Rows are made as plain strings and handed to deflate
 * in parts of about 64 KB; the writer waits while more than `backlogLimit` bytes are unsent.
 */
import type { Writable } from 'node:stream';
import { ZipStream, type ZipEntryStream } from './zipStream.ts';

/** A hyperlink cell (issue 12: a link to each photo); its address is the server's own, never a user's text. */
export interface LinkValue {
  text: string;
  hyperlink: string;
}
/** A cell: text (always a plain string cell), a number, a date (its UTC fields), a link, or nothing. */
export type CellValue = string | number | Date | LinkValue | null;

export interface Column {
  header: string;
  width: number;
  /** An Excel number format, for date columns. */
  numFmt?: string;
}

export interface XlsxOptions {
  sheetName: string;
  columns: Column[];
  /** The document's creator and application (docProps). */
  creator: string;
  /** The number format of a date in a column without one of its own. */
  dateFormat: string;
  /** Unsent bytes (compressed or not) the writer may hold before `drained` waits. Default 1 MB. */
  backlogLimit?: number;
  /** The files' time. Default now. */
  now?: Date;
}

/** Excel's limit on the characters of a cell: longer text is cut to it, ending with an ellipsis. */
export const CELL_TEXT_MAX = 32_767;
/** Excel's last column, XFD. */
const COLUMNS_MAX = 16_384;
/** Sheet XML is handed to deflate in parts of about this many characters. */
const CHUNK = 64 * 1024;
const BACKLOG_LIMIT = 1024 * 1024;
const DAY_MS = 86_400_000;
/** The Excel serial number of 1970-01-01 (1900 date system). */
const UNIX_EPOCH = 25_569;

// Styles (cellXfs) of the style sheet below: 0 the default, 1 bold, 2 hyperlink, then one date style per
// number format.
const BOLD_STYLE = ' s="1"';
const LINK_STYLE = ' s="2"';
const STYLE_DATES = 3;
const NUMFMT_FIRST = 164;

const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  // A carriage return is kept as a reference: a raw one would be read back as a line feed.
  '\r': '&#13;',
};
// What XML 1.0 does not allow: controls other than tab, line feed and carriage return, U+FFFE, U+FFFF, and
// surrogates that are not part of a pair.
const ILLEGAL =
  // eslint-disable-next-line no-control-regex -- these are the characters to remove
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// The same, or a character to escape: one test finds text that needs no work (most of it).
const UNSAFE_SOURCE = `[&<>"\\r]|${ILLEGAL.source}`;
const UNSAFE = new RegExp(UNSAFE_SOURCE);
const UNSAFE_ALL = new RegExp(UNSAFE_SOURCE, 'g');

/** Text as XML character data or attribute value: escaped, without the characters XML does not allow. */
export function escapeXml(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, (c) => ENTITY[c] ?? '') : text;
}

/** A cell's text element: escaped, cut to Excel's limit, its leading and trailing spaces kept. */
function textElement(value: string): string {
  let text = value;
  if (text.length > CELL_TEXT_MAX) {
    text = text.replace(ILLEGAL, '');
    if (text.length > CELL_TEXT_MAX) {
      let cut = CELL_TEXT_MAX - 1;
      // Never half a surrogate pair.
      const last = text.charCodeAt(cut - 1);
      if (last >= 0xd800 && last <= 0xdbff) cut--;
      text = text.slice(0, cut) + '…';
    }
  }
  const escaped = escapeXml(text);
  return value.charCodeAt(0) <= 32 || value.charCodeAt(value.length - 1) <= 32
    ? '<t xml:space="preserve">' + escaped + '</t>'
    : '<t>' + escaped + '</t>';
}

/** A, B, …, Z, AA, … of a zero-based column index. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
/** The relationships namespace, and the stem of every relationship type. */
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PACKAGE_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-';

function contentTypes(): string {
  const override = (part: string, type: string) =>
    `<Override PartName="${part}" ContentType="${CT}${type}"/>`;
  return (
    XML_HEAD +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    `<Default Extension="rels" ContentType="${CT}package.relationships+xml"/>` +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    override('/xl/workbook.xml', 'officedocument.spreadsheetml.sheet.main+xml') +
    override('/xl/worksheets/sheet1.xml', 'officedocument.spreadsheetml.worksheet+xml') +
    override('/xl/styles.xml', 'officedocument.spreadsheetml.styles+xml') +
    override('/docProps/core.xml', 'package.core-properties+xml') +
    override('/docProps/app.xml', 'officedocument.extended-properties+xml') +
    '</Types>'
  );
}

function relationships(list: [type: string, target: string][]): string {
  return (
    XML_HEAD +
    `<Relationships xmlns="${NS_PACKAGE_RELS}">` +
    list
      .map(([type, target], i) => `<Relationship Id="rId${i + 1}" Type="${type}" Target="${target}"/>`)
      .join('') +
    '</Relationships>'
  );
}

function appProperties(creator: string): string {
  return (
    XML_HEAD +
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">' +
    `<Application>${escapeXml(creator)}</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop>` +
    '<LinksUpToDate>false</LinksUpToDate><SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged>' +
    '</Properties>'
  );
}

function coreProperties(creator: string, now: Date): string {
  const time = now.toISOString().slice(0, 19) + 'Z';
  return (
    XML_HEAD +
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"' +
    ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"' +
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:creator>${escapeXml(creator)}</dc:creator>` +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${time}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${time}</dcterms:modified>` +
    '</cp:coreProperties>'
  );
}

function workbook(sheetName: string): string {
  return (
    XML_HEAD +
    `<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_R}">` +
    '<bookViews><workbookView/></bookViews>' +
    `<sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets>` +
    '</workbook>'
  );
}

/** Default, bold (the header), hyperlink, then one date style per number format, in `numFmts`' order. */
function styles(numFmts: string[]): string {
  const font = (inner: string) => `<font>${inner}<sz val="11"/><name val="Calibri"/><family val="2"/></font>`;
  const xf = (numFmtId: number, fontId: number, apply: string) =>
    `<xf numFmtId="${numFmtId}" fontId="${fontId}" fillId="0" borderId="0" xfId="0"${apply}/>`;
  return (
    XML_HEAD +
    `<styleSheet xmlns="${NS_MAIN}">` +
    `<numFmts count="${numFmts.length}">` +
    numFmts
      .map((code, i) => `<numFmt numFmtId="${NUMFMT_FIRST + i}" formatCode="${escapeXml(code)}"/>`)
      .join('') +
    '</numFmts>' +
    '<fonts count="3">' +
    font('') +
    font('<b/>') +
    font('<u/><color rgb="FF0563C1"/>') +
    '</fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${STYLE_DATES + numFmts.length}">` +
    xf(0, 0, '') +
    xf(0, 1, ' applyFont="1"') +
    xf(0, 2, ' applyFont="1"') +
    numFmts.map((_, i) => xf(NUMFMT_FIRST + i, 0, ' applyNumberFormat="1"')).join('') +
    '</cellXfs>' +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>'
  );
}

type Output = Writable & { readableLength?: number };

/**
 * Writes one sheet: the constructor writes everything up to the header row, `addRow` each row, `end` the rest.
 * Between rows, when `addRow` answers true, the caller awaits `drained()`: the event loop turns (the response
 * and the deflater get their turn) and the writer waits while the backlog is over its limit.
 */
export class XlsxWriter {
  private readonly zip: ZipStream;
  private sheet: ZipEntryStream;
  private readonly names: string[];
  /** Per column, the ` s="…"` of its dates. */
  private readonly dateStyles: string[];
  private readonly defaultDateStyle: string;
  private readonly backlogLimit: number;
  /** Hyperlinks until the end: cell reference, address, cell reference, address, … */
  private readonly links: string[] = [];
  private xml = '';
  private row = 0;

  constructor(
    private readonly out: Output,
    options: XlsxOptions,
  ) {
    const { columns, creator } = options;
    const now = options.now ?? new Date();
    this.backlogLimit = options.backlogLimit ?? BACKLOG_LIMIT;
    this.zip = new ZipStream((chunk) => {
      if (!out.destroyed) out.write(chunk);
    }, now);
    const numFmts = [
      ...new Set([options.dateFormat, ...columns.flatMap((c) => (c.numFmt ? [c.numFmt] : []))]),
    ];
    const styleOf = (numFmt: string) => ` s="${STYLE_DATES + numFmts.indexOf(numFmt)}"`;
    this.defaultDateStyle = styleOf(options.dateFormat);
    this.dateStyles = columns.map((c) => (c.numFmt ? styleOf(c.numFmt) : this.defaultDateStyle));
    this.names = columns.map((_, i) => columnName(i));

    this.zip.addFile('[Content_Types].xml', contentTypes());
    this.zip.addFile(
      '_rels/.rels',
      relationships([
        [`${NS_R}/officeDocument`, 'xl/workbook.xml'],
        [
          'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties',
          'docProps/core.xml',
        ],
        [`${NS_R}/extended-properties`, 'docProps/app.xml'],
      ]),
    );
    this.zip.addFile('docProps/app.xml', appProperties(creator));
    this.zip.addFile('docProps/core.xml', coreProperties(creator, now));
    this.zip.addFile('xl/workbook.xml', workbook(options.sheetName));
    this.zip.addFile(
      'xl/_rels/workbook.xml.rels',
      relationships([
        [`${NS_R}/worksheet`, 'worksheets/sheet1.xml'],
        [`${NS_R}/styles`, 'styles.xml'],
      ]),
    );
    this.zip.addFile('xl/styles.xml', styles(numFmts));

    this.sheet = this.zip.openEntry('xl/worksheets/sheet1.xml');
    const cols = columns
      .map((c, i) => {
        // A date column's style, as exceljs wrote it: a reader takes the column's number format from it.
        const style = c.numFmt ? ` style="${STYLE_DATES + numFmts.indexOf(c.numFmt)}"` : '';
        return `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"${style}/>`;
      })
      .join('');
    this.xml =
      XML_HEAD +
      `<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_R}">` +
      '<sheetViews><sheetView tabSelected="1" workbookViewId="0">' +
      '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
      '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>' +
      '</sheetView></sheetViews>' +
      '<sheetFormatPr defaultRowHeight="15"/>' +
      (cols ? `<cols>${cols}</cols>` : '') +
      '<sheetData><row r="1">' +
      columns
        .map((c, i) =>
          c.header
            ? `<c r="${this.names[i]}1"${BOLD_STYLE} t="inlineStr"><is>${textElement(c.header)}</is></c>`
            : '',
        )
        .join('') +
      '</row>';
    this.row = 1;
  }

  private columnName(index: number): string {
    if (index >= COLUMNS_MAX) throw new Error(`A row has more than Excel's ${COLUMNS_MAX} columns.`);
    while (this.names.length <= index) this.names.push(columnName(this.names.length));
    return this.names[index]!;
  }

  /** Adds a row. True when a part went to the zip: time to await `drained()`. */
  addRow(values: readonly CellValue[]): boolean {
    const r = String(++this.row);
    let xml = '<row r="' + r + '">';
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value === null || value === undefined) continue;
      const name = this.names[i] ?? this.columnName(i);
      const cell = '<c r="' + name + r + '"';
      if (typeof value === 'string') {
        if (value.length) xml += cell + ' t="inlineStr"><is>' + textElement(value) + '</is></c>';
      } else if (typeof value === 'number') {
        if (Number.isFinite(value)) xml += cell + '><v>' + value + '</v></c>';
      } else if (value instanceof Date) {
        const serial = value.getTime() / DAY_MS + UNIX_EPOCH;
        const style = this.dateStyles[i] ?? this.defaultDateStyle;
        if (!Number.isNaN(serial)) xml += cell + style + '><v>' + serial + '</v></c>';
      } else {
        xml += cell + LINK_STYLE + ' t="inlineStr"><is>' + textElement(value.text) + '</is></c>';
        this.links.push(name + r, value.hyperlink);
      }
    }
    this.xml += xml + '</row>';
    if (this.xml.length < CHUNK) return false;
    this.flush();
    return true;
  }

  private flush() {
    if (!this.xml) return;
    this.sheet.write(Buffer.from(this.xml, 'utf8'));
    this.xml = '';
  }

  /** Bytes held: not compressed yet, or compressed and not taken by the reader. */
  get backlog(): number {
    return this.sheet.backlog + this.out.writableLength + (this.out.readableLength ?? 0);
  }

  /** Lets the event loop turn, then waits while the backlog is over its limit (unless the output is gone). */
  async drained(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (!this.out.destroyed && this.backlog > this.backlogLimit) {
      await new Promise<void>((resolve) => {
        const events = [this.out, this.sheet.events];
        const done = () => {
          clearTimeout(timer);
          for (const e of events) e.off('drain', done).off('close', done);
          resolve();
        };
        // Events wake it as soon as there is room; the timer in case none comes.
        const timer = setTimeout(done, 50);
        for (const e of events) e.once('drain', done).once('close', done);
      });
    }
  }

  /** Appends to the current entry's XML, handing it on in parts (and waiting between them). */
  private async append(xml: string) {
    this.xml += xml;
    if (this.xml.length >= CHUNK) {
      this.flush();
      await this.drained();
    }
  }

  /** Writes the rest of the sheet, its hyperlinks, the central directory; ends the output. */
  async end(): Promise<void> {
    this.xml += '</sheetData>';
    const links = this.links;
    if (links.length) {
      this.xml += '<hyperlinks>';
      for (let i = 0; i < links.length; i += 2) {
        await this.append(`<hyperlink ref="${links[i]}" r:id="rId${i / 2 + 1}"/>`);
      }
      this.xml += '</hyperlinks>';
    }
    this.xml +=
      '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';
    this.flush();
    await this.sheet.end();
    if (links.length) {
      this.sheet = this.zip.openEntry('xl/worksheets/_rels/sheet1.xml.rels');
      this.xml = XML_HEAD + `<Relationships xmlns="${NS_PACKAGE_RELS}">`;
      for (let i = 0; i < links.length; i += 2) {
        await this.append(
          `<Relationship Id="rId${i / 2 + 1}" Type="${NS_R}/hyperlink" Target="${escapeXml(links[i + 1]!)}" TargetMode="External"/>`,
        );
      }
      this.xml += '</Relationships>';
      this.flush();
      await this.sheet.end();
    }
    this.zip.finish();
    this.out.end();
  }

  /** Stops writing (the export failed or its reader went away). */
  destroy(): void {
    this.sheet.destroy();
  }
}
