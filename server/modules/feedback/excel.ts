/** get-feedback-excel: the Feedback tab's export, one row per feedback, streamed as .xlsx. */
import type { FastifyBaseLogger } from 'fastify';
import type { ExportRequest } from '../../../common/api/inputs.ts';
import type { Db } from '../../db/index.ts';
import type { FileAnswer } from '../../http/handlers.ts';
import type { Caller } from '../shared/caller.ts';
import { exportFilter, type SearchFilter } from '../shared/search.ts';
import {
  DATE_FORMAT,
  exportFilename,
  streamWorkbook,
  WallClock,
  type CellValue,
  type Column,
} from '../shared/workbook.ts';
import { feedbackPage, type FeedbackRow } from '../shared/feedback.ts';

export function feedbackSheetColumns(clock: WallClock): Column[] {
  return [
    { header: `Created (${clock.timeZone})`, width: 20, numFmt: DATE_FORMAT },
    { header: 'Board', width: 24 },
    { header: 'Card', width: 24 },
    { header: 'User', width: 28 },
    { header: 'Feedback', width: 80 },
  ];
}

/** Feedback is one row each (an evaluation is ten): a batch of 100 lives as briefly as 10 evaluations. */
export const FEEDBACK_EXPORT_BATCH = 100;

function* rowsOf(clock: WallClock, rows: FeedbackRow[]): Generator<CellValue[]> {
  for (const row of rows) {
    yield [clock.wall(row.created_at), row.board_name, row.card_name, row.user_name, row.content];
  }
}

async function* feedbackBatches(
  db: Db,
  orgId: number,
  filter: SearchFilter,
  clock: WallClock,
): AsyncGenerator<Iterable<CellValue[]>> {
  let after: SearchFilter['after'] = null;
  for (;;) {
    const rows: FeedbackRow[] = await feedbackPage(db, orgId, { ...filter, after }, FEEDBACK_EXPORT_BATCH);
    if (!rows.length) return;
    yield rowsOf(clock, rows);
    if (rows.length < FEEDBACK_EXPORT_BATCH) return;
    const last = rows.at(-1)!;
    after = { time: last.created_at, id: last.id };
  }
}

export async function exportFeedback(
  db: Db,
  caller: Caller,
  input: ExportRequest,
  now: number,
  log: FastifyBaseLogger,
): Promise<FileAnswer> {
  const clock = new WallClock(input.timeZone);
  const filter = exportFilter(input, caller, now);
  return streamWorkbook({
    filename: exportFilename('Feedback', clock, now),
    sheetName: 'Feedback',
    columns: feedbackSheetColumns(clock),
    batches: feedbackBatches(db, caller.orgId, filter, clock),
    log,
    now,
  });
}
