/**
 * Issue 15's side-by-side figures, measured in the same run as the rest of `npm run bench`:
 * - get-boards through the whole app (session, validation, presentation, logging) against bare Fastify and
 *   the same driver running the same SELECTs (bench/bare-server.ts), in A B A B order, as requests per
 *   second of a closed loop of BENCH_AB_CONNECTIONS connections for BENCH_AB_SECONDS a round;
 * - get-excel's rows per second against a bare exceljs streaming writer writing the same rows (the same
 *   join, read with the same driver) in this process: issue 15's named reference. The export used this
 *   writer with these options until decision 0744; it now writes with its own (server/modules/shared/
 *   xlsxWriter.ts), and the reference stays exceljs.
 */
import { fork } from 'node:child_process';
import { Writable } from 'node:stream';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { Client } from './http.ts';
import { benchDir, numberSetting } from './settings.ts';

const SECONDS = numberSetting('BENCH_AB_SECONDS', 5);
const CONNECTIONS = numberSetting('BENCH_AB_CONNECTIONS', 50);

export interface Target {
  client: Client;
  stop(): Promise<void>;
}

export async function startBare(databaseUrl: string, orgId: number): Promise<Target> {
  const child = fork(path.join(benchDir, 'bare-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DATABASE_URL: databaseUrl, BENCH_ORG_ID: String(orgId) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code}) before listening`)));
  });
  const client = new Client(port, CONNECTIONS + 8);
  return {
    client,
    stop: async () => {
      client.close();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Requests per second of `CONNECTIONS` callers calling back to back for `SECONDS`. */
async function throughput(call: () => Promise<{ status: number; body: Buffer }>): Promise<number> {
  let done = 0;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const answer = await call();
        if (answer.status !== 200)
          throw new Error(`get-boards answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

export interface SideBySide {
  bare: number[];
  app: number[];
  /** The app's mean over the bare handler's mean. */
  ratio: number;
  sameAnswer: boolean;
  loadBefore: number[];
  loadAfter: number[];
}

export async function getBoardsSideBySide(
  app: Client,
  bare: Client,
  cookie: string,
  loadAverage: () => number[],
): Promise<SideBySide> {
  const callApp = () => app.call('/api/get-boards', {}, { cookie });
  const callBare = () => bare.call('/api/get-boards', {});
  const [a, b] = await Promise.all([callApp(), callBare()]);
  const sameAnswer = a.body.toString() === b.body.toString();
  // Warm both up (JIT, statement caches, connections).
  for (let i = 0; i < 200; i++) await Promise.all([callApp(), callBare()]);
  const loadBefore = loadAverage();
  const result = { bare: [] as number[], app: [] as number[] };
  for (let round = 0; round < 2; round++) {
    result.bare.push(await throughput(callBare));
    result.app.push(await throughput(callApp));
  }
  const mean = (list: number[]) => list.reduce((s, v) => s + v, 0) / list.length;
  return {
    ...result,
    ratio: mean(result.app) / mean(result.bare),
    sameAnswer,
    loadBefore,
    loadAfter: loadAverage(),
  };
}

class Sink extends Writable {
  bytes = 0;
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.bytes += chunk.length;
    done();
  }
}

type ExportRow = {
  completed_at: number;
  board_name: string;
  card_name: string;
  user_name: string;
  pass: number;
  content: string;
  result_pass: number | null;
  text_result: string | null;
  numeric_result: number | null;
  na: number;
};

const EXPORT_SQL = (placeholder: (n: number) => string) => `
  select e.completed_at, e.board_name, e.card_name, e.user_name, e.pass, r.content, r.pass as result_pass,
         r.text_result, r.numeric_result, r.na
  from evaluations e join results r on r.evaluation_id = e.id and r.org_id = e.org_id
  where e.org_id = ${placeholder(1)} and e.completed_at >= ${placeholder(2)} and e.completed_at <= ${placeholder(3)}
  order by e.completed_at desc, e.id desc, r.position, r.id`;

/**
 * The bare exceljs streaming writer: the same rows (every result of the exported evaluations, the same
 * ten cells, dates as dates) read with the driver alone and written with the export's writer options.
 */
export async function bareExcel(
  databaseUrl: string,
  orgId: number,
  from: number,
  to: number,
): Promise<{ rows: number; seconds: number; rowsPerSecond: number; megabytes: number }> {
  const sink = new Sink();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: 1 } },
  });
  const sheet = workbook.addWorksheet('Evaluations');
  sheet.columns = [
    'Completed (UTC)',
    'Board',
    'Card',
    'User',
    'Evaluation Pass',
    'Item',
    'Item Result',
    'Text',
    'Number',
    'N/A',
  ].map((header) => ({ header, width: 20 }));
  let rows = 0;
  const write = (row: ExportRow) => {
    sheet
      .addRow([
        new Date(row.completed_at),
        row.board_name,
        row.card_name,
        row.user_name,
        row.pass === 1 ? 'Pass' : 'Fail',
        row.content,
        row.na === 1 ? 'N/A' : row.result_pass === null ? null : row.result_pass === 1 ? 'Pass' : 'Fail',
        row.text_result,
        row.numeric_result,
        row.na === 1 ? 'Yes' : 'No',
      ])
      .commit();
    rows++;
  };
  const started = performance.now();
  if (databaseUrl.startsWith('sqlite:')) {
    const sqlite = new SQLite(databaseUrl.slice('sqlite:'.length), { readonly: true });
    const statement = sqlite.prepare(EXPORT_SQL(() => '?'));
    for (const row of statement.iterate(orgId, from, to) as IterableIterator<ExportRow>) {
      write(row);
      // Let the zip stream drain, as a streaming writer must.
      if (rows % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    sqlite.close();
  } else {
    const client = new pg.Client({ connectionString: databaseUrl });
    pg.types.setTypeParser(20, Number);
    await client.connect();
    // Keyset pages of evaluations (the driver alone has no cursor), all their results each.
    let before: { time: number; id: number } | null = null;
    for (;;) {
      const page: { rows: { id: number; completed_at: number }[] } = await client.query(
        `select id, completed_at from evaluations where org_id = $1 and completed_at >= $2 and completed_at <= $3
         ${before ? 'and (completed_at, id) < ($4, $5)' : ''} order by completed_at desc, id desc limit 1000`,
        before ? [orgId, from, to, before.time, before.id] : [orgId, from, to],
      );
      if (!page.rows.length) break;
      const last = page.rows.at(-1)!;
      const results = await client.query<ExportRow>(
        `select e.completed_at, e.board_name, e.card_name, e.user_name, e.pass, r.content, r.pass as result_pass,
                r.text_result, r.numeric_result, r.na
         from evaluations e join results r on r.evaluation_id = e.id and r.org_id = e.org_id
         where e.org_id = $1 and e.id = any($2) order by e.completed_at desc, e.id desc, r.position, r.id`,
        [orgId, page.rows.map((r) => r.id)],
      );
      for (const row of results.rows) write(row);
      await new Promise((resolve) => setImmediate(resolve));
      before = { time: last.completed_at, id: last.id };
    }
    await client.end();
  }
  sheet.commit();
  await workbook.commit();
  const seconds = (performance.now() - started) / 1000;
  return { rows, seconds, rowsPerSecond: rows / seconds, megabytes: sink.bytes / 1024 / 1024 };
}
