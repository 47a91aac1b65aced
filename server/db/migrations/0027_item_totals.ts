import { sql } from 'kysely';
import type { DialectName, UntypedDb } from '../dialect.ts';
import { SLOT_MS } from './0005_analytics.ts';

/**
 * item_totals' units, in quarter-hours (docs/decisions/0627): the quarter-hour itself (unit 0), the UTC
 * hour (1), the UTC day (2) and eight UTC days from the epoch (3). Fixed multiples, so a slot is plain
 * integer division of completed_at on both databases.
 */
export const ITEM_UNITS = [1, 4, 96, 768] as const;

/**
 * Fills item_totals from the results of completed evaluations (the table must be empty): each item's
 * answers per board and quarter-hour from the results, once; then all boards (board_id 0) from those rows;
 * then the hours from the quarter-hours, the days from the hours and the eight-day blocks from the days.
 * Plain SQL, so the benchmark's bulk seed runs it too. `kind` is 1 for results of a Pass/Fail item (every one counted, `answers`), 0 for results of
 * other items, kept only when they count something (an N/A).
 */
export const BACKFILL_ITEM_TOTALS = [
  `
  insert into item_totals (org_id, board_id, item_id, unit, slot, kind, passed, failed, na, answers)
  select r.org_id, e.board_id, r.item_id, 0, e.completed_at / ${SLOT_MS},
    case when r.item_type = 'pass_fail' then 1 else 0 end,
    sum(case when r.na = 0 and r.pass = 1 then 1 else 0 end),
    sum(case when r.na = 0 and r.pass = 0 then 1 else 0 end),
    sum(case when r.na = 1 then 1 else 0 end),
    count(*)
  from results r join evaluations e on e.id = r.evaluation_id
  where e.completed_at is not null
    and (r.item_type = 'pass_fail' or r.na = 1 or r.pass is not null)
  group by r.org_id, e.board_id, r.item_id, e.completed_at / ${SLOT_MS},
    case when r.item_type = 'pass_fail' then 1 else 0 end
  order by 1, 2, 3, 5, 6`,
  `
  insert into item_totals (org_id, board_id, item_id, unit, slot, kind, passed, failed, na, answers)
  select org_id, 0, item_id, 0, slot, kind, sum(passed), sum(failed), sum(na), sum(answers)
  from item_totals
  where unit = 0 and board_id <> 0
  group by org_id, item_id, slot, kind
  order by 1, 3, 5, 6`,
  // Each unit from the one below it (the fewer rows to read), which it divides.
  ...ITEM_UNITS.slice(1).map(
    (size, i) => `
  insert into item_totals (org_id, board_id, item_id, unit, slot, kind, passed, failed, na, answers)
  select org_id, board_id, item_id, ${i + 1}, slot / ${size / ITEM_UNITS[i]!}, kind,
    sum(passed), sum(failed), sum(na), sum(answers)
  from item_totals
  where unit = ${i}
  group by org_id, board_id, item_id, slot / ${size / ITEM_UNITS[i]!}, kind
  order by 1, 2, 3, 5, 6`,
  ),
];

/**
 * item_totals (issue 15, docs/decisions/0627): each item's answers (passed, failed, N/A, and how many
 * results) per board (board_id 0: every board) and unit of time, kept in the transactions that complete
 * and delete evaluations, so one card's items over a year read a bounded number of rows whatever the
 * number of evaluations. Primary key (org_id, unit, board_id, item_id, slot, kind): an item's range of
 * time at one unit is a range of it (SQLite: WITHOUT ROWID, so the range is the data), and the backfill,
 * unit after unit in key order, appends.
 */
export function itemTotals(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createTable('item_totals')
        // No foreign key: the rows are derived from results (which have theirs), and a check per row would
        // cost every completion ~60 checks and the backfill most of its time on PostgreSQL.
        .addColumn('org_id', 'bigint', (c) => c.notNull())
        .addColumn('board_id', 'bigint', (c) => c.notNull())
        .addColumn('item_id', 'bigint', (c) => c.notNull())
        .addColumn('unit', 'integer', (c) => c.notNull())
        .addColumn('slot', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'integer', (c) => c.notNull())
        .addColumn('passed', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('na', 'integer', (c) => c.notNull())
        .addColumn('answers', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('item_totals_pk', ['org_id', 'unit', 'board_id', 'item_id', 'slot', 'kind'])
        .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
        .execute();
      for (const statement of BACKFILL_ITEM_TOTALS) await sql.raw(statement).execute(db);
    },
  };
}
