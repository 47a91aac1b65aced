/** get-excel: the matching evaluations with their results, one row per result, streamed as .xlsx. */
import type { FastifyBaseLogger } from 'fastify';
import type { ExportRequest } from '../../../common/api/inputs.ts';
import type { Db } from '../../db/index.ts';
import type { FileAnswer } from '../../http/handlers.ts';
import type { Caller } from '../shared/caller.ts';
import { exportFilter, type SearchFilter } from '../shared/search.ts';
import { evaluationPage, type EvaluationRow } from '../shared/evaluations.ts';
import {
  DATE_FORMAT,
  exportFilename,
  plainText,
  streamWorkbook,
  WallClock,
  type CellValue,
  type Column,
  type LinkValue,
} from '../shared/workbook.ts';
import { photosOf } from '../shared/photos.ts';
import { PHOTOS_PER_RESULT_MAX, photoPath } from '../../../common/evidence.ts';

export const EXPORT_BATCH = 10;

export function evaluationSheetColumns(clock: WallClock): Column[] {
  return [
    { header: `Completed (${clock.timeZone})`, width: 20, numFmt: DATE_FORMAT },
    { header: 'Board', width: 24 },
    { header: 'Card', width: 24 },
    { header: 'User', width: 28 },
    { header: 'Evaluation Pass', width: 14 },
    { header: 'Item', width: 48 },
    { header: 'Item Result', width: 12 },
    { header: 'Text', width: 40 },
    { header: 'Number', width: 12 },
    { header: 'N/A', width: 8 },
    // Issue 12: the note and a link to each photo (signed-in users open them with their session).
    { header: 'Note', width: 40 },
    ...Array.from({ length: PHOTOS_PER_RESULT_MAX }, (_, i) => ({ header: `Photo ${i + 1}`, width: 14 })),
  ];
}

/** One result as the export keeps it: a few shared strings and numbers (see evaluationBatches). */
type ExportResult = [
  item: string,
  result: string | null,
  text: string | null,
  number: number | null,
  na: string,
  note: string | null,
  ...photos: LinkValue[],
];

function itemResult(result: { pass: 0 | 1 | null; na: 0 | 1 }): string | null {
  if (result.na === 1) return 'N/A';
  if (result.pass === null) return null;
  return result.pass === 1 ? 'Pass' : 'Fail';
}

/** The results of a batch of evaluations, in one query, kept compact (the item text is shared). */
async function exportResults(
  db: Db,
  orgId: number,
  ids: number[],
  appUrl: string,
): Promise<Map<number, ExportResult[]>> {
  const byEvaluation = new Map<number, ExportResult[]>(ids.map((id) => [id, []]));
  if (!ids.length) return byEvaluation;
  const photos = await photosOf(db, orgId, ids);
  const rows = await db
    .selectFrom('results')
    .select(['evaluation_id', 'item_id', 'content', 'pass', 'text_result', 'numeric_result', 'na', 'note'])
    .where('org_id', '=', orgId)
    .where('evaluation_id', 'in', ids)
    .orderBy('evaluation_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    byEvaluation.get(row.evaluation_id)?.push([
      plainText(row.content),
      itemResult(row),
      row.text_result,
      row.numeric_result,
      row.na === 1 ? 'Yes' : 'No',
      row.note,
      ...(photos.get(row.evaluation_id)?.get(row.item_id) ?? []).map((photo, index) => ({
        text: `Photo ${index + 1}`,
        hyperlink: `${appUrl}${photoPath(photo.id, 'full')}`,
      })),
    ]);
  }
  return byEvaluation;
}

/** The sheet rows of a batch, made one at a time as they are written. */
function* rowsOf(
  clock: WallClock,
  evaluations: EvaluationRow[],
  results: Map<number, ExportResult[]>,
): Generator<CellValue[]> {
  for (const evaluation of evaluations) {
    const completed = clock.wall(evaluation.completed_at!);
    const pass = evaluation.pass === 1 ? 'Pass' : 'Fail';
    const head = [completed, evaluation.board_name, evaluation.card_name, evaluation.user_name, pass];
    const own = results.get(evaluation.id) ?? [];
    // An evaluation of a card without items still gets its row.
    if (!own.length) yield [...head, null, null, null, null, null, null];
    for (const result of own) yield [...head, ...result];
  }
}

/**
 * Keyset batches of the filter's evaluations (newest first) with their results, two queries a batch, the
 * next batch read while this one is written. Batches are small on purpose: a batch lives only while it is
 * written, a few milliseconds, so it dies young instead of being promoted and swelling the heap between full
 * collections (measured by bench/: a batch of 10 keeps the export's memory flat; 100 did not).
 */
async function* evaluationBatches(
  db: Db,
  orgId: number,
  filter: SearchFilter,
  clock: WallClock,
  appUrl: string,
): AsyncGenerator<Iterable<CellValue[]>> {
  type Batch = { evaluations: EvaluationRow[]; results: Map<number, ExportResult[]> };
  const fetch = (after: SearchFilter['after']): Promise<Batch> => {
    const batch = (async (): Promise<Batch> => {
      const evaluations = await evaluationPage(db, orgId, { ...filter, after }, EXPORT_BATCH);
      const results = await exportResults(
        db,
        orgId,
        evaluations.map((e) => e.id),
        appUrl,
      );
      return { evaluations, results };
    })();
    batch.catch(() => {}); // awaited below; not an unhandled rejection if the export stops first
    return batch;
  };
  let pending: Promise<Batch> | null = fetch(null);
  while (pending) {
    const { evaluations, results }: Batch = await pending;
    const last: EvaluationRow | undefined = evaluations.at(-1);
    pending =
      last && evaluations.length === EXPORT_BATCH ? fetch({ time: last.completed_at!, id: last.id }) : null;
    if (!evaluations.length) return;
    yield rowsOf(clock, evaluations, results);
  }
}

export async function exportEvaluations(
  db: Db,
  caller: Caller,
  input: ExportRequest,
  now: number,
  log: FastifyBaseLogger,
  appUrl: string,
): Promise<FileAnswer> {
  const clock = new WallClock(input.timeZone);
  const filter = exportFilter(input, caller, now);
  return streamWorkbook({
    filename: exportFilename('Evaluations', clock, now),
    sheetName: 'Evaluations',
    columns: evaluationSheetColumns(clock),
    batches: evaluationBatches(db, caller.orgId, filter, clock, appUrl),
    log,
    now,
  });
}
