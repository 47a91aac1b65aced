import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import ExcelJS from 'exceljs';
import { describe, expect, it, vi } from 'vitest';
import {
  buildBoard,
  buildCard,
  buildEvaluation,
  buildFeedback,
  buildTeam,
  buildUser,
  signIn,
} from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { nameKey } from '../../../common/validation.ts';
import { FEEDBACK_EXPORT_BATCH } from '../feedback/excel.ts';
import { EXPORT_BATCH } from './excel.ts';
import { plainText, streamWorkbook, XLSX_CONTENT_TYPE, workbookMessages } from '../shared/workbook.ts';
import { steady } from '../../test/steady.ts';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const { ValueType } = ExcelJS;

/** One file of a .xlsx (a zip), read with nothing but zlib: to look at the raw sheet XML. */
function zipEntry(zip: Buffer, suffix: string): string {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (name.endsWith(suffix)) {
      const local = zip.readUInt32LE(at + 42);
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    at += 46 + skip;
  }
  throw new Error(`${suffix} is not in the file`);
}

async function readSheet(file: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  return workbook.worksheets[0]!;
}

type Expected = string | number | Date | null;

/** Every cell of the sheet, with its type: what the file holds, checked cell by cell. */
function cellsOf(sheet: ExcelJS.Worksheet, width: number): { value: Expected; type: number }[][] {
  const rows: { value: Expected; type: number }[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells: { value: Expected; type: number }[] = [];
    for (let column = 1; column <= width; column++) {
      const cell = row.getCell(column);
      cells.push({ value: cell.value as Expected, type: cell.type });
    }
    rows.push(cells);
  });
  return rows;
}

const text = (value: string) => ({ value, type: ValueType.String });
const empty = { value: null, type: ValueType.Null };
const date = (value: Date) => ({ value, type: ValueType.Date });
const number = (value: number) => ({ value, type: ValueType.Number });
const cellOf = (value: Expected) => {
  if (value === null) return empty;
  if (value instanceof Date) return date(value);
  return typeof value === 'number' ? number(value) : text(value);
};

const HEADERS = ['Board', 'Card', 'User', 'Evaluation Pass', 'Item', 'Item Result', 'Text', 'Number', 'N/A'];

function stampOf(ms: number) {
  return iso(ms).slice(0, 19).replace('T', '_').replaceAll(':', '-');
}

async function setup(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org, {
    name: 'Press check',
    items: [
      { type: 'instruction', content: '<p>Stop the line &amp; <b>lock</b> out.</p>' },
      { type: 'pass_fail', content: '<p>Guards in place</p>' },
      { type: 'pass_fail', content: '<p>Floor is dry</p>', na: true },
      { type: 'text', content: '<p>Operator</p>' },
      { type: 'numeric', content: '<p>Temperature</p>' },
    ],
  });
  const board = await buildBoard(env, team.org, { name: 'Line One', cardIds: [card.id] });
  return { team, card, board };
}

for (const exportWorkers of [false, true]) {
  describeEachDatabase(
    `get-excel${exportWorkers ? ' (export workers)' : ''}`,
    (env) => {
      it('exports the matching evaluations as a real .xlsx, one row per result, checked cell by cell', async () => {
        const s = await setup(env);
        const now = env.clock.now();
        const [, guards, floor, operator, temperature] = s.card.itemIds as [
          number,
          number,
          number,
          number,
          number,
        ];
        const started = await call(
          env,
          'addEvaluation',
          { boardID: s.board.id, cardID: s.card.id },
          { cookie: s.team.evaluator.cookie },
        );
        const done = await call(
          env,
          'addResults',
          {
            evalID: started.body.id,
            results: [
              { item_id: guards, pass: false },
              { item_id: floor, na: true },
              { item_id: operator, text_result: 'Sam & Alex <night shift>' },
              { item_id: temperature, numeric_result: 21.5 },
            ],
          },
          { cookie: s.team.evaluator.cookie },
        );
        expect(done.status).toBe(200);
        await buildEvaluation(env, s.team.org, {
          ...s,
          user: s.team.evaluator,
          completedAt: now - 90 * MINUTE,
          results: [
            { item_id: guards, item_type: 'pass_fail', position: 1, content: '<p>Guards</p>', pass: true },
          ],
        });
        await buildEvaluation(env, s.team.org, {
          ...s,
          user: s.team.evaluator,
          completedAt: now - 100 * MINUTE,
        });
        // Not exported: unfinished, another member's (without editing mode), another organisation's.
        await buildEvaluation(env, s.team.org, { ...s, user: s.team.evaluator, completedAt: null });
        await buildEvaluation(env, s.team.org, { ...s, user: s.team.admin });
        const other = await setup(env);
        await buildEvaluation(env, other.team.org, { ...other, user: other.team.evaluator });

        const answer = await call(env, 'getExcel', {}, { cookie: s.team.evaluator.cookie });
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
        expect(answer.headers['content-disposition']).toBe(
          `attachment; filename="Checkboard_Evaluations_${stampOf(now)}.xlsx"`,
        );
        const sheet = await readSheet(answer.body);
        expect(sheet.name).toBe('Evaluations');
        const head = (at: number, pass: string) => [
          date(new Date(at)),
          text('Line One'),
          text('Press check'),
          text(s.team.evaluator.email),
          text(pass),
        ];
        expect(cellsOf(sheet, 10)).toEqual([
          [text('Completed (UTC)'), ...HEADERS.map(text)],
          [...head(now, 'Fail'), text('Stop the line & lock out.'), empty, empty, empty, text('No')],
          [...head(now, 'Fail'), text('Guards in place'), text('Fail'), empty, empty, text('No')],
          [...head(now, 'Fail'), text('Floor is dry'), text('N/A'), empty, empty, text('Yes')],
          [
            ...head(now, 'Fail'),
            text('Operator'),
            empty,
            text('Sam & Alex <night shift>'),
            empty,
            text('No'),
          ],
          [...head(now, 'Fail'), text('Temperature'), empty, empty, number(21.5), text('No')],
          [...head(now - 90 * MINUTE, 'Pass'), text('Guards'), text('Pass'), empty, empty, text('No')],
          [...head(now - 100 * MINUTE, 'Pass'), empty, empty, empty, empty, empty],
        ]);
        expect(sheet.getColumn(1).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
      });

      it('never writes a formula, whatever a name or an answer starts with', async () => {
        const team = await buildTeam(env);
        const card = await buildCard(env, team.org, { name: 'Plain card' });
        const board = await buildBoard(env, team.org, { name: 'Plain board', cardIds: [card.id] });
        const user = await buildUser(env, team.org, { role: 'evaluator', email: '-2+3@example.com' });
        // Names cannot hold these characters through the API (SPEC §5): written straight to the database.
        const dangerous = {
          board: { id: board.id, name: '+SUM(1,2)' },
          card: { id: card.id, name: '=HYPERLINK("http://evil.example","Click")' },
        };
        await buildEvaluation(env, team.org, {
          ...dangerous,
          user,
          results: [
            {
              item_id: card.itemIds[1]!,
              item_type: 'pass_fail',
              position: 1,
              content: '<p>=SUM(A1:A9)</p>',
              pass: true,
            },
            {
              item_id: card.itemIds[2]!,
              item_type: 'text',
              position: 2,
              content: '<p>@cmd</p>',
              text_result: '=1+1',
            },
          ],
        });
        const answer = await call(env, 'getExcel', {}, { cookie: await signIn(env, user) });
        expect(answer.status).toBe(200);
        const rows = cellsOf(await readSheet(answer.body), 10).slice(1);
        const strings = rows.flatMap((row) => row.slice(1, 8)).filter((cell) => cell.value !== null);
        expect(strings.map((cell) => cell.value)).toEqual([
          '+SUM(1,2)',
          '=HYPERLINK("http://evil.example","Click")',
          '-2+3@example.com',
          'Pass',
          '=SUM(A1:A9)',
          'Pass',
          '+SUM(1,2)',
          '=HYPERLINK("http://evil.example","Click")',
          '-2+3@example.com',
          'Pass',
          '@cmd',
          '=1+1',
        ]);
        for (const cell of strings) expect(cell).toEqual(text(cell.value as string));
        // The sheet's XML holds values only: no formula element anywhere.
        const xml = zipEntry(answer.body, 'xl/worksheets/sheet1.xml');
        expect(xml).toContain('=HYPERLINK(&quot;http://evil.example&quot;,&quot;Click&quot;)');
        expect(xml).not.toMatch(/<f[\s>]/);
      });

      it('writes dates in the requested time zone and refuses an unknown one', async () => {
        const s = await setup(env);
        const now = env.clock.now();
        await buildEvaluation(env, s.team.org, { ...s, user: s.team.evaluator, completedAt: now - MINUTE });
        const answer = await call(
          env,
          'getExcel',
          { timeZone: 'America/New_York' },
          { cookie: s.team.evaluator.cookie },
        );
        expect(answer.status).toBe(200);
        // January: New York is five hours behind UTC.
        const offset = -5 * 60 * MINUTE;
        expect(answer.headers['content-disposition']).toBe(
          `attachment; filename="Checkboard_Evaluations_${stampOf(now + offset)}.xlsx"`,
        );
        const rows = cellsOf(await readSheet(answer.body), 2);
        expect(rows).toEqual([
          [text('Completed (America/New_York)'), text('Board')],
          [date(new Date(now - MINUTE + offset)), text('Line One')],
        ]);
        const refused = await call(
          env,
          'getExcel',
          { timeZone: 'Mars/Olympus' },
          { cookie: s.team.evaluator.cookie },
        );
        expect(refused).toMatchObject({
          status: 400,
          body: { errMsg: workbookMessages.unknownTimeZone, errField: 'timeZone' },
        });
      });

      it('exports the search’s filter: everyone’s in editing mode, up to maxDateTime, ignoring the page cursor', async () => {
        const s = await setup(env);
        const now = env.clock.now();
        const evaluation = (user: { id: number; email: string }, minutesAgo: number, board = s.board) =>
          buildEvaluation(env, s.team.org, {
            board,
            card: s.card,
            user,
            completedAt: now - minutesAgo * MINUTE,
          });
        const otherBoard = await buildBoard(env, s.team.org, { name: 'Line Two', cardIds: [s.card.id] });
        await evaluation(s.team.evaluator, 30);
        await evaluation(s.team.admin, 20);
        await evaluation(s.team.evaluator, 10, otherBoard);
        await evaluation(s.team.admin, 0);
        const users = async (body: Record<string, unknown>) => {
          const answer = await call(env, 'getExcel', body, { cookie: s.team.admin.cookie });
          expect(answer.status).toBe(200);
          return cellsOf(await readSheet(answer.body), 4)
            .slice(1)
            .map((row) => `${row[1]!.value} ${row[3]!.value === s.team.admin.email ? 'admin' : 'evaluator'}`);
        };
        expect(await users({})).toEqual(['Line One admin', 'Line One admin']);
        expect(await users({ isEditing: true })).toEqual([
          'Line One admin',
          'Line Two evaluator',
          'Line One admin',
          'Line One evaluator',
        ]);
        expect(
          await users({
            isEditing: true,
            maxDateTime: iso(now - 5 * MINUTE),
            quantity: 1,
            previousDateTime: iso(now - 25 * MINUTE),
            previousID: 1,
          }),
        ).toEqual(['Line Two evaluator', 'Line One admin', 'Line One evaluator']);
        expect(await users({ isEditing: true, boardName: 'TWO' })).toEqual(['Line Two evaluator']);
        expect(
          await users({ isEditing: true, startDateTime: iso(now - 15 * MINUTE), userName: 'nobody' }),
        ).toEqual([]);
      });

      it('streams exports larger than a batch, in order, without a row missing or repeated', async () => {
        const s = await setup(env);
        const now = env.clock.now();
        const count = EXPORT_BATCH * 2 + 37;
        const values = Array.from({ length: count }, (_, i) => ({
          org_id: s.team.org.id,
          board_id: s.board.id,
          card_id: s.card.id,
          user_id: s.team.evaluator.id,
          anon_key_id: null,
          user_name: s.team.evaluator.email,
          board_name: s.board.name,
          card_name: s.card.name,
          user_name_key: nameKey(s.team.evaluator.email),
          board_name_key: nameKey(s.board.name),
          card_name_key: nameKey(s.card.name),
          pass: 1 as const,
          has_feedback: 0 as const,
          // Several evaluations share each completed time: the id orders them, also across batches.
          started_at: now - Math.floor(i / 7) * MINUTE,
          completed_at: now - Math.floor(i / 7) * MINUTE,
        }));
        for (let i = 0; i < values.length; i += 100) {
          await env.db
            .insertInto('evaluations')
            .values(values.slice(i, i + 100))
            .execute();
        }
        const rows = await env.db
          .selectFrom('evaluations')
          .select(['id', 'completed_at'])
          .where('org_id', '=', s.team.org.id)
          .orderBy('completed_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
        for (let i = 0; i < rows.length; i += 100) {
          await env.db
            .insertInto('results')
            .values(
              rows.slice(i, i + 100).flatMap((row) =>
                [1, 2].map((position) => ({
                  org_id: s.team.org.id,
                  evaluation_id: row.id,
                  item_id: s.card.itemIds[position]!,
                  item_type: 'text' as const,
                  position,
                  content: `<p>Item ${position}</p>`,
                  pass: null,
                  text_result: `#${row.id}`,
                  numeric_result: position,
                  na: 0 as const,
                })),
              ),
            )
            .execute();
        }
        const answer = await call(env, 'getExcel', {}, { cookie: s.team.evaluator.cookie });
        expect(answer.status).toBe(200);
        const cells = cellsOf(await readSheet(answer.body), 9).slice(1);
        expect(cells).toHaveLength(count * 2);
        expect(cells.map((row) => `${row[7]!.value} ${row[8]!.value}`)).toEqual(
          rows.flatMap((row) => [`#${row.id} 1`, `#${row.id} 2`]),
        );
      });

      it('refuses get-excel without a session (401) and to a viewer (403)', async () => {
        const s = await setup(env);
        expect(await call(env, 'getExcel', {})).toMatchObject({
          status: 401,
          body: { errMsg: 'Please sign in to continue.' },
        });
        expect(await call(env, 'getExcel', {}, { cookie: s.team.viewer.cookie })).toMatchObject({
          status: 403,
          body: { errMsg: 'Not authorized.' },
        });
      });
    },
    { exportWorkers },
  );
}

describe('streaming a workbook', () => {
  /** Batches of 10 rows of incompressible text (40 KB a batch), counting how many were asked for. */
  function source(count: number) {
    const state = { pulled: 0, closed: false };
    async function* batches() {
      try {
        for (let b = 0; b < count; b++) {
          state.pulled++;
          yield Array.from({ length: 10 }, (_, i) => [b * 10 + i, randomBytes(3000).toString('base64')]);
        }
      } finally {
        state.closed = true;
      }
    }
    return { state, batches: batches() };
  }

  const columns = [
    { header: 'N', width: 8 },
    { header: 'Text', width: 40 },
  ];

  it('holds the export while nobody reads, and stops it when the download is dropped', async () => {
    const { state, batches } = source(1000);
    const log = { error: vi.fn() };
    const answer = await streamWorkbook({
      filename: 'x.xlsx',
      sheetName: 'Rows',
      columns,
      batches,
      log: log as unknown as FastifyBaseLogger,
    });
    // Nobody reads: the export stops once a few megabytes wait between exceljs, the zip and the response
    // (about 7 MB of this incompressible text: 180 batches), far from the 40 MB.
    const held = await steady(() => state.pulled);
    expect(held).toBeLessThan(300);
    expect(state.closed).toBe(false);
    // The client goes away (Fastify destroys the body when the response closes early).
    const atDrop = state.pulled;
    answer.file.body.destroy();
    await steady(() => state.pulled);
    expect(state.pulled - atDrop).toBeLessThanOrEqual(1);
    expect(state.closed).toBe(true);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('gives a slow reader the whole file', async () => {
    const { state, batches } = source(300);
    const answer = await streamWorkbook({
      filename: 'x.xlsx',
      sheetName: 'Rows',
      columns,
      batches,
      log: { error: vi.fn() } as unknown as FastifyBaseLogger,
    });
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      answer.file.body
        .pipe(
          new Writable({
            highWaterMark: 16 * 1024,
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              setTimeout(done, 1);
            },
          }),
        )
        .on('finish', resolve)
        .on('error', reject);
    });
    expect(state).toEqual({ pulled: 300, closed: true });
    const numbers = cellsOf(await readSheet(Buffer.concat(chunks)), 1)
      .slice(1)
      .map((row) => row[0]!.value);
    expect(numbers).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  });
});

for (const exportWorkers of [false, true]) {
  describeEachDatabase(
    `get-feedback-excel${exportWorkers ? ' (export workers)' : ''}`,
    (env) => {
      it('exports the matching feedback, one row each, checked cell by cell, with no formula', async () => {
        const s = await setup(env);
        const now = env.clock.now();
        const evaluation = await buildEvaluation(env, s.team.org, {
          ...s,
          user: s.team.evaluator,
          completedAt: now - 60 * MINUTE,
        });
        await buildFeedback(env, s.team.org, {
          board: s.board,
          evaluation: { id: evaluation.id, card: s.card },
          user: s.team.evaluator,
          content: '=cmd|" /C calc"!A0',
          createdAt: now - 30 * MINUTE,
        });
        await buildFeedback(env, s.team.org, {
          board: s.board,
          user: s.team.evaluator,
          content: 'Board light is out.\nPlease fix.',
          createdAt: now - 10 * MINUTE,
        });
        await buildFeedback(env, s.team.org, { board: s.board, user: s.team.admin, content: 'Not mine' });
        const answer = await call(
          env,
          'getFeedbackExcel',
          { timeZone: 'UTC' },
          { cookie: s.team.evaluator.cookie },
        );
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
        expect(answer.headers['content-disposition']).toBe(
          `attachment; filename="Checkboard_Feedback_${stampOf(now)}.xlsx"`,
        );
        const sheet = await readSheet(answer.body);
        expect(sheet.name).toBe('Feedback');
        expect(cellsOf(sheet, 5)).toEqual([
          ['Created (UTC)', 'Board', 'Card', 'User', 'Feedback'].map(text),
          [
            now - 10 * MINUTE,
            'Line One',
            null,
            s.team.evaluator.email,
            'Board light is out.\nPlease fix.',
          ].map((v) => cellOf(typeof v === 'number' ? new Date(v) : v)),
          [now - 30 * MINUTE, 'Line One', 'Press check', s.team.evaluator.email, '=cmd|" /C calc"!A0'].map(
            (v) => cellOf(typeof v === 'number' ? new Date(v) : v),
          ),
        ]);
        expect(zipEntry(answer.body, 'xl/worksheets/sheet1.xml')).not.toMatch(/<f[\s>]/);

        const everyone = await call(
          env,
          'getFeedbackExcel',
          { isEditing: true },
          { cookie: s.team.admin.cookie },
        );
        expect(cellsOf(await readSheet(everyone.body), 5)).toHaveLength(4);
      });

      it('exports feedback across batches, newest first, none missing or repeated', async () => {
        const s = await setup(env);
        const now = env.clock.now();
        const count = FEEDBACK_EXPORT_BATCH * 2 + 13;
        const values = Array.from({ length: count }, (_, i) => ({
          org_id: s.team.org.id,
          evaluation_id: null,
          board_id: s.board.id,
          card_id: null,
          user_id: s.team.evaluator.id,
          anon_key_id: null,
          user_name: s.team.evaluator.email,
          board_name: s.board.name,
          card_name: null,
          user_name_key: nameKey(s.team.evaluator.email),
          board_name_key: nameKey(s.board.name),
          card_name_key: '',
          content: `Note ${i}`,
          // Pairs share a time: the id orders them.
          created_at: now - Math.floor(i / 2) * MINUTE,
          updated_at: now,
        }));
        for (let i = 0; i < count; i += 100) {
          await env.db
            .insertInto('feedback')
            .values(values.slice(i, i + 100))
            .execute();
        }
        const expected = await env.db
          .selectFrom('feedback')
          .select('content')
          .where('org_id', '=', s.team.org.id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
        const answer = await call(env, 'getFeedbackExcel', {}, { cookie: s.team.evaluator.cookie });
        const contents = cellsOf(await readSheet(answer.body), 5)
          .slice(1)
          .map((row) => row[4]!.value);
        expect(contents).toEqual(expected.map((row) => row.content));
      });

      it('refuses get-feedback-excel without a session (401) and to a viewer (403)', async () => {
        const s = await setup(env);
        expect(await call(env, 'getFeedbackExcel', {})).toMatchObject({ status: 401 });
        expect(await call(env, 'getFeedbackExcel', {}, { cookie: s.team.viewer.cookie })).toMatchObject({
          status: 403,
        });
      });
    },
    { exportWorkers },
  );
}

it('turns card item HTML into the plain text of a cell', () => {
  expect(
    plainText('<p>Check the <b>guard</b>&nbsp;&amp; the&#32;floor.</p><ul><li>One</li><li>Two</li></ul>'),
  ).toBe('Check the guard & the floor. One Two');
  expect(plainText('<p>5 &lt; 6 &#x263A; &unknown;</p>')).toBe('5 < 6 ☺ &unknown;');
  expect(plainText('plain')).toBe('plain');
});
