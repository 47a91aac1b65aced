import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import ExcelJS from 'exceljs';
import { describe, expect, it, vi } from 'vitest';
import { checkWithAnotherReader, unzipped } from '../../test/zip.ts';
import { DATE_FORMAT, streamWorkbook } from './workbook.ts';
import { CELL_TEXT_MAX, columnName, XlsxWriter, type CellValue, type Column } from './xlsxWriter.ts';

const { ValueType } = ExcelJS;
const quietLog = () => ({ error: vi.fn() });

/** The whole body of a stream. */
async function bytesOf(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** streamWorkbook's download of these batches, as the exports start it. */
async function exportOf(
  columns: Column[],
  batches: AsyncIterator<Iterable<CellValue[]>>,
  log: ReturnType<typeof quietLog>,
  sheetName = 'Rows',
) {
  const answer = await streamWorkbook({
    filename: 'x.xlsx',
    sheetName,
    columns,
    batches,
    log: log as unknown as FastifyBaseLogger,
  });
  return answer.file.body;
}

/** A workbook through streamWorkbook, as the exports write it. */
async function workbookOf(columns: Column[], rows: CellValue[][], sheetName = 'Rows'): Promise<Buffer> {
  async function* batches() {
    yield rows;
  }
  const log = quietLog();
  const file = await bytesOf(await exportOf(columns, batches(), log, sheetName));
  expect(log.error).not.toHaveBeenCalled();
  return file;
}

async function load(file: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  expect(book.worksheets).toHaveLength(1);
  return { book, sheet: book.worksheets[0]! };
}

describe('the xlsx writer, read back with exceljs', () => {
  const columns: Column[] = [
    { header: 'When', width: 20, numFmt: DATE_FORMAT },
    { header: 'Text', width: 40 },
    { header: 'Number', width: 9.5 },
    { header: ' Day ', width: 12, numFmt: 'yyyy-mm-dd' },
    { header: 'Photo', width: 14 },
  ];
  const when = new Date(Date.UTC(2026, 0, 15, 12, 34, 56));
  const day = new Date(Date.UTC(2025, 11, 31));
  const link = {
    text: 'Photo 1',
    hyperlink: 'https://checkboard.example/api/get-result-photo?photoID=7&size=full',
  };
  const rows: CellValue[][] = [
    [when, 'Sam & Alex <night shift> "quoted" \'single\'', 21.5, day, link],
    [null, '😀 emoji, 中文, ünïcödé', 0, null, null],
    [null, '  two spaces before, one after ', -3.25, null, null],
    [null, '=1+1', 123456789012, null, null],
    [null, '+SUM(1,2)', 1e-7, null, null],
    [null, '@cmd', Number.NaN, null, null],
    [null, '-2+3', Number.POSITIVE_INFINITY, null, null],
    [null, 'a\u0000b\u0007c\u000bd\u001fe\ufffef\uffffg\ud800h\udc00i', null, null, null],
    [null, 'tab\there\nline\r\nnext', null, null, null],
    // More cells than columns: written all the same (a date without a column format gets DATE_FORMAT).
    [null, '', null, null, null, 'F', when],
  ];

  it('keeps text, numbers, dates, nulls and links, never a formula', async () => {
    const file = await workbookOf(columns, rows);
    const { book, sheet } = await load(file);
    expect(book.creator).toBe('Checkboard');
    const cell = (row: number, column: number) => sheet.getRow(row).getCell(column);

    expect([1, 2, 3, 4, 5].map((c) => cell(1, c).value)).toEqual([
      'When',
      'Text',
      'Number',
      ' Day ',
      'Photo',
    ]);
    expect(cell(2, 1)).toMatchObject({ type: ValueType.Date, value: when, numFmt: DATE_FORMAT });
    expect(cell(2, 4)).toMatchObject({ type: ValueType.Date, value: day, numFmt: 'yyyy-mm-dd' });
    expect(cell(2, 3)).toMatchObject({ type: ValueType.Number, value: 21.5 });
    expect(cell(2, 5).type).toBe(ValueType.Hyperlink);
    expect(cell(2, 5).value).toEqual(link);
    expect(cell(2, 5).font).toMatchObject({ underline: true });

    const texts = rows.map((_, i) => cell(i + 2, 2));
    expect(texts.map((c) => c.value)).toEqual([
      'Sam & Alex <night shift> "quoted" \'single\'',
      '😀 emoji, 中文, ünïcödé',
      '  two spaces before, one after ',
      '=1+1',
      '+SUM(1,2)',
      '@cmd',
      '-2+3',
      // What XML 1.0 cannot hold is removed: controls, U+FFFE, U+FFFF and lone surrogates.
      'abcdefghi',
      'tab\there\nline\r\nnext',
      null,
    ]);
    for (const c of texts.slice(0, -1)) expect(c.type).toBe(ValueType.String);
    expect(texts.at(-1)!.type).toBe(ValueType.Null);

    expect(rows.map((_, i) => cell(i + 2, 3).value)).toEqual([
      21.5,
      0,
      -3.25,
      123456789012,
      1e-7,
      null,
      null,
      null,
      null,
      null,
    ]);
    for (const row of [3, 4, 5])
      expect([cell(row, 1).value, cell(row, 4).value, cell(row, 5).value]).toEqual([null, null, null]);
    expect(cell(11, 6).value).toBe('F');
    expect(cell(11, 7)).toMatchObject({ type: ValueType.Date, value: when, numFmt: DATE_FORMAT });

    // The XML itself: inline strings, no formula, no shared strings, null and NaN as no cell at all.
    const entries = unzipped(file);
    expect([...entries.keys()]).not.toContain('xl/sharedStrings.xml');
    const xml = entries.get('xl/worksheets/sheet1.xml')!.data.toString('utf8');
    expect(xml).not.toMatch(/<f[\s>]/);
    expect(xml).toContain('<c r="B5" t="inlineStr"><is><t>=1+1</t></is></c>');
    expect(xml).toContain('<t xml:space="preserve">  two spaces before, one after </t>');
    expect(xml).toContain('&quot;quoted&quot;');
    expect(xml).not.toMatch(/r="(A3|D3|E3|C7|C8|B11)"/);
  });

  it('writes a bold, frozen header row, the column widths and formats', async () => {
    const { sheet } = await load(await workbookOf(columns, rows.slice(0, 2)));
    expect(sheet.views).toEqual([
      expect.objectContaining({ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2' }),
    ]);
    expect(columns.map((_, i) => sheet.getColumn(i + 1).width)).toEqual([20, 40, 9.5, 12, 14]);
    expect(sheet.getColumn(1).numFmt).toBe(DATE_FORMAT);
    expect(sheet.getColumn(4).numFmt).toBe('yyyy-mm-dd');
    for (let c = 1; c <= 5; c++) expect(sheet.getRow(1).getCell(c).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(2).font?.bold).toBeFalsy();
  });

  it('keeps the sheet name as given, escaped', async () => {
    const { sheet } = await load(await workbookOf(columns, [], 'R&D <1> "x"'));
    expect(sheet.name).toBe('R&D <1> "x"');
    expect(sheet.rowCount).toBe(1);
  });

  it('cuts text past Excel’s 32,767 characters, ending it with an ellipsis, never within a pair', async () => {
    const long = 'x'.repeat(40_000);
    // An emoji straddling the cut: its high surrogate would be the last character kept.
    const straddling = 'y'.repeat(CELL_TEXT_MAX - 2) + '😀' + 'z'.repeat(10);
    const exact = 'w'.repeat(CELL_TEXT_MAX);
    const { sheet } = await load(
      await workbookOf([{ header: 'Text', width: 40 }], [[long], [straddling], [exact]]),
    );
    const values = [2, 3, 4].map((r) => sheet.getRow(r).getCell(1).value as string);
    expect(values[0]).toBe('x'.repeat(CELL_TEXT_MAX - 1) + '…');
    expect(values[1]).toBe('y'.repeat(CELL_TEXT_MAX - 2) + '…');
    expect(values[2]).toBe(exact);
  });
});

describe('the workbook’s zip', () => {
  it('names columns as Excel does', () => {
    expect([0, 25, 26, 51, 52, 701, 702, 16_383].map(columnName)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ]);
  });

  it('is read by a second, independent reader', async () => {
    const file = await workbookOf(
      [
        { header: 'N', width: 8 },
        { header: 'Text', width: 40 },
        { header: 'Link', width: 10 },
      ],
      Array.from({ length: 5_000 }, (_, i) => [
        i,
        randomBytes(30).toString('base64'),
        { text: `Photo ${i}`, hyperlink: `https://checkboard.example/p/${i}` },
      ]),
    );
    const reader = checkWithAnotherReader(file);
    if (reader === null) console.warn('Neither unzip nor python3 here: the zip was checked by exceljs only.');
    const entries = unzipped(file);
    expect([...entries.keys()]).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'docProps/app.xml',
      'docProps/core.xml',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/_rels/sheet1.xml.rels',
    ]);
    // UTF-8 names (bit 11) everywhere; the streamed entries have their sizes after the data (bit 3).
    expect([...entries.values()].map((e) => e.flags)).toEqual([...Array(7).fill(0x800), 0x808, 0x808]);
    const rels = entries.get('xl/worksheets/_rels/sheet1.xml.rels')!.data.toString('utf8');
    expect(rels.match(/TargetMode="External"/g)).toHaveLength(5_000);
    const { sheet } = await load(file);
    expect(sheet.getRow(5_001).getCell(3).value).toEqual({
      text: 'Photo 4999',
      hyperlink: 'https://checkboard.example/p/4999',
    });
  });
});

describe('streaming', () => {
  const columns: Column[] = [
    { header: 'N', width: 8 },
    { header: 'When', width: 20, numFmt: DATE_FORMAT },
    { header: 'Text', width: 40 },
    { header: 'Other', width: 40 },
  ];
  const rowOf = (i: number): CellValue[] => [
    i,
    new Date(Date.UTC(2026, 0, 1) + i * 1000),
    randomBytes(48).toString('base64'),
    `Row ${i} & more`,
  ];

  it('never holds more than its backlog limit for a slow reader, over 200,000 rows', async () => {
    const limit = 256 * 1024;
    const out = new PassThrough();
    const writer = new XlsxWriter(out, {
      sheetName: 'Rows',
      columns,
      creator: 'Test',
      dateFormat: DATE_FORMAT,
      backlogLimit: limit,
    });
    let most = 0;
    let stalls = 0;
    let received = 0;
    const bytes: Buffer[] = [];
    // A reader that takes 16 KB at a time and stops for 50 ms after each megabyte.
    const reader = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, done) {
        most = Math.max(most, writer.backlog);
        bytes.push(chunk);
        const before = received;
        received += chunk.length;
        if (Math.floor(received / 1e6) > Math.floor(before / 1e6)) {
          stalls++;
          setTimeout(done, 50);
        } else done();
      },
    });
    const read = new Promise((resolve, reject) => out.pipe(reader).on('finish', resolve).on('error', reject));
    const count = 200_000;
    for (let i = 0; i < count; i++) {
      if (writer.addRow(rowOf(i))) {
        await writer.drained();
        most = Math.max(most, writer.backlog);
      }
    }
    await writer.end();
    await read;
    const file = Buffer.concat(bytes);
    // What waits is the limit, plus at most a part of sheet XML and its compressed bytes on their way.
    expect(most).toBeGreaterThan(limit / 2);
    expect(most).toBeLessThan(limit + 192 * 1024);
    expect(stalls).toBeGreaterThan(5);
    expect(file.length).toBeGreaterThan(10 * limit);
    checkWithAnotherReader(file);
    const xml = unzipped(file).get('xl/worksheets/sheet1.xml')!.data.toString('utf8');
    expect(xml.match(/<row /g)).toHaveLength(count + 1);
    expect(xml).toContain(`<row r="${count + 1}"><c r="A${count + 1}"><v>${count - 1}</v></c>`);
  }, 60_000);

  it('stops when nobody reads, and stops for good when the client goes away', async () => {
    const state = { pulled: 0, closed: false };
    async function* batches() {
      try {
        for (let b = 0; b < 10_000; b++) {
          state.pulled++;
          yield Array.from({ length: 100 }, (_, i) => rowOf(b * 100 + i));
        }
      } finally {
        state.closed = true;
      }
    }
    const log = quietLog();
    const body = await exportOf(columns, batches(), log);
    // A few chunks are read, then nothing: the export stops after about the backlog limit (1 MB).
    let read = 0;
    await new Promise<void>((resolve) => {
      body.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > 200_000) {
          body.pause();
          resolve();
        }
      });
    });
    const settle = async () => {
      let before = -1;
      while (before !== state.pulled) {
        before = state.pulled;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    await settle();
    const held = state.pulled;
    // 100 rows of ~150 bytes a batch, ~8 KB compressed: a few megabytes of XML at most, far from all of it.
    expect(held).toBeLessThan(300);
    expect(state.closed).toBe(false);
    body.destroy();
    await settle();
    expect(state.pulled - held).toBeLessThanOrEqual(1);
    expect(state.closed).toBe(true);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('cuts the download and logs when the rows fail mid-way', async () => {
    async function* batches() {
      yield [rowOf(0)];
      throw new Error('database gone');
    }
    const log = quietLog();
    await expect(bytesOf(await exportOf(columns, batches(), log))).rejects.toThrow('database gone');
    expect(log.error).toHaveBeenCalledOnce();
  });
});
