/**
 * EXPLAIN of the hot queries, exactly as the services build them: the services run against a Kysely that
 * records every compiled query, and each recorded SELECT/UPDATE is explained (EXPLAIN QUERY PLAN on SQLite,
 * EXPLAIN (ANALYZE, BUFFERS) of the SELECTs on PostgreSQL).
 */
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type CompiledQuery as Compiled,
} from 'kysely';
import pg from 'pg';
import type { Db } from '../server/db/index.ts';
import type { DB } from '../server/db/schema.ts';
import type { Caller } from '../server/modules/shared/caller.ts';
import { EXPORT_BATCH } from '../server/modules/evaluations/excel.ts';
import { searchFilter } from '../server/modules/shared/search.ts';
import {
  boardEvaluations,
  completeEvaluation,
  evaluationPage,
  resultsOf,
  startEvaluation,
} from '../server/modules/shared/evaluations.ts';

export type Location = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export interface HotContext {
  orgId: number;
  ownerId: number;
  ownerEmail: string;
  evaluatorId: number;
  evaluatorEmail: string;
  boardId: number;
  cardId: number;
  itemIds: number[];
  now: number;
  maxDateTime: string;
  page1000: { previousDateTime: string; previousID: number };
  exportStart: string;
}

const DAY = 24 * 60 * 60_000;

class Rollback extends Error {}

/** The statement, with long IN lists and repeated UNION parts shortened. */
function abbreviated(text: string): string {
  let short = text
    .replace(/\s+/g, ' ')
    .replace(/\((\?, ){8,}\?\)/g, (list) => `(?, … ${list.split('?').length - 1} values)`);
  const parts = short.split(' union all ');
  if (parts.length > 2) short = `${parts[0]} union all … (${parts.length} parts like it)`;
  return short;
}

export async function explainHotQueries(location: Location, hot: HotContext): Promise<string> {
  let label = '';
  const recorded: { label: string; query: Compiled }[] = [];
  const log = (event: { level: string; query: Compiled }) => {
    if (event.level === 'query') recorded.push({ label, query: event.query });
  };
  const db: Db =
    location.dialect === 'sqlite'
      ? new Kysely<DB>({ dialect: new SqliteDialect({ database: new SQLite(location.file) }), log })
      : new Kysely<DB>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: location.url, max: 2 }) }),
          log,
        });

  const admin: Caller = {
    orgId: hot.orgId,
    who: { userId: hot.ownerId, userName: hot.ownerEmail, anonKeyId: null },
    managesAll: true,
  };
  const evaluator: Caller = {
    orgId: hot.orgId,
    who: { userId: hot.evaluatorId, userName: hot.evaluatorEmail, anonKeyId: null },
    managesAll: false,
  };
  const step = async (name: string, run: () => Promise<unknown>) => {
    label = name;
    await run();
  };
  await step('get-evaluations (a board, last 31 days)', () =>
    boardEvaluations(db, admin, { boardId: hot.boardId, since: hot.now - 31 * DAY }, hot.now),
  );
  const everyone = { isEditing: true, quantity: 48, maxDateTime: hot.maxDateTime };
  let page1: number[] = [];
  await step('search-evaluations page 1 (administrator, editing mode)', async () => {
    page1 = (await evaluationPage(db, hot.orgId, searchFilter(everyone, admin), 48)).map((r) => r.id);
  });
  await step('search-evaluations page 1,000', () =>
    evaluationPage(db, hot.orgId, searchFilter({ ...everyone, ...hot.page1000 }, admin), 48),
  );
  await step('search-evaluations page 1 (an evaluator’s own)', () =>
    evaluationPage(db, hot.orgId, searchFilter({ quantity: 48 }, evaluator), 48),
  );
  await step('search-evaluations-with-results (the page’s results)', () => resultsOf(db, hot.orgId, page1));
  await step('search-evaluations, board name filter', () =>
    evaluationPage(db, hot.orgId, searchFilter({ ...everyone, boardName: 'line 07' }, admin), 48),
  );
  await step('get-excel batch (evaluations, then their results)', async () => {
    const filter = { ...searchFilter({ ...everyone, startDateTime: hot.exportStart }, admin), after: null };
    const rows = await evaluationPage(db, hot.orgId, filter, EXPORT_BATCH);
    await resultsOf(
      db,
      hot.orgId,
      rows.map((r) => r.id),
    );
  });
  await step('add-evaluation + add-results (rolled back)', () =>
    db
      .transaction()
      .execute(async (trx) => {
        const { id } = await startEvaluation(
          trx,
          evaluator,
          { boardId: hot.boardId, cardId: hot.cardId },
          hot.now,
        );
        await completeEvaluation(
          trx,
          evaluator,
          {
            evalId: id,
            results: hot.itemIds.map((item_id, position) =>
              position >= 1 && position <= 7 ? { item_id, pass: true } : { item_id },
            ),
          },
          hot.now,
        );
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      }),
  );

  const lines: string[] = [];
  let lastLabel = '';
  for (const { label: name, query } of recorded) {
    const verb = query.sql.trim().split(/\s/)[0]!.toLowerCase();
    if (verb !== 'select' && verb !== 'update') continue;
    if (name !== lastLabel) lines.push('', `## ${name}`);
    lastLabel = name;
    lines.push('', abbreviated(query.sql));
    if (location.dialect === 'sqlite') {
      const plan = await db.executeQuery<{ id: number; parent: number; detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      const depth = new Map<number, number>([[0, 0]]);
      for (const row of plan.rows) {
        const d = (depth.get(row.parent) ?? 0) + 1;
        depth.set(row.id, d);
        lines.push(`${'  '.repeat(d)}${row.detail}`);
      }
    } else {
      // ANALYZE runs the statement: only the reads are analysed.
      const options = verb === 'select' ? 'analyze, buffers, costs off' : 'costs off';
      const plan = await db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain (${options}) ${query.sql}`, [...query.parameters]),
      );
      for (const row of plan.rows) lines.push(`  ${row['QUERY PLAN']}`);
    }
  }
  await db.destroy();
  return lines.join('\n');
}
