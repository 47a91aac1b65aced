/** get-actions-excel: the actions the filter matches, one row each, streamed as .xlsx like the other exports. */
import type { FastifyBaseLogger } from 'fastify';
import type { ActionsFilter } from '../../../common/api/index.ts';
import type { Db } from '../../db/index.ts';
import type { FileAnswer } from '../../http/handlers.ts';
import {
  DATE_FORMAT,
  exportFilename,
  streamWorkbook,
  WallClock,
  type CellValue,
  type Column,
} from '../shared/workbook.ts';
import {
  actionsPage,
  pageFilter,
  rowIsOverdue,
  type ActionRow,
  type ActionsPageFilter,
  type Viewer,
} from './service.ts';

export const ACTIONS_EXPORT_BATCH = 100;

export function actionSheetColumns(clock: WallClock): Column[] {
  return [
    { header: 'Due', width: 12 },
    { header: 'Status', width: 11 },
    { header: 'Overdue', width: 9 },
    { header: 'Priority', width: 9 },
    { header: 'Title', width: 40 },
    { header: 'Description', width: 48 },
    { header: 'Board', width: 24 },
    { header: 'Card', width: 24 },
    { header: 'Assignee', width: 28 },
    { header: 'Raised by', width: 28 },
    { header: `Raised (${clock.timeZone})`, width: 20, numFmt: DATE_FORMAT },
    { header: `Closed (${clock.timeZone})`, width: 20, numFmt: DATE_FORMAT },
    { header: 'Close-out note', width: 48 },
  ];
}

function* rowsOf(clock: WallClock, rows: ActionRow[], now: number): Generator<CellValue[]> {
  for (const row of rows) {
    yield [
      row.due_date,
      row.status,
      rowIsOverdue(row, now) ? 'Yes' : 'No',
      row.priority,
      row.title,
      row.description,
      row.board_name,
      row.card_name,
      row.assignee_email,
      row.raised_by_name,
      clock.wall(row.created_at),
      row.closed_at === null ? null : clock.wall(row.closed_at),
      row.close_note,
    ];
  }
}

async function* actionBatches(
  db: Db,
  orgId: number,
  filter: ActionsPageFilter,
  clock: WallClock,
  now: number,
): AsyncGenerator<Iterable<CellValue[]>> {
  let after: ActionsPageFilter['after'] = null;
  for (;;) {
    const rows: ActionRow[] = await actionsPage(db, orgId, { ...filter, after }, ACTIONS_EXPORT_BATCH);
    if (!rows.length) return;
    yield rowsOf(clock, rows, now);
    if (rows.length < ACTIONS_EXPORT_BATCH) return;
    const last = rows.at(-1)!;
    after = { dueDate: last.due_date, id: last.id };
  }
}

export async function exportActions(
  db: Db,
  viewer: Viewer,
  input: ActionsFilter & { timeZone?: string | undefined },
  now: number,
  log: FastifyBaseLogger,
): Promise<FileAnswer> {
  const clock = new WallClock(input.timeZone);
  // The export takes the filter, never the cursor: every matching action from the first.
  const filter = pageFilter({ ...input, previousDueDate: null, previousID: null }, viewer);
  return streamWorkbook({
    filename: exportFilename('Actions', clock, now),
    sheetName: 'Actions',
    columns: actionSheetColumns(clock),
    batches: actionBatches(db, viewer.orgId, filter, clock, now),
    log,
    now,
  });
}
