import { sql } from 'kysely';
import { ref, type DialectName, type UntypedDb } from '../dialect.ts';
import { SLOT_MS } from './0005_analytics.ts';

/** The coarser units of evaluation_totals, in quarter-hours (docs/decisions/0582). */
export const TOTAL_UNITS = { hour: 4, day: 96 } as const;
export const UNIT_CODES = { hour: 1, day: 2 } as const;

/** The four levels, as (board, card) columns: one card on one board, a board, a card on every board, all. */
const LEVELS = [
  ['board_id', 'card_id'],
  ['board_id', '0'],
  ['0', 'card_id'],
  ['0', '0'],
] as const;

const groupBy = (board: string, card: string) =>
  `org_id, ${board === '0' ? '' : 'board_id, '}${card === '0' ? '' : 'card_id, '}`;

/**
 * Adds evaluation_counts' fourth level (one card on every board: board_id 0, card_id ≠ 0), then fills
 * evaluation_totals from the completed evaluations at the four levels, by UTC hour and UTC day. Plain SQL,
 * run after 0005's backfill, so the benchmark's bulk seed runs it too.
 */
export const BACKFILL_EVALUATION_TOTALS = [
  `
  insert into evaluation_counts (org_id, board_id, card_id, slot, passed, failed)
  select org_id, 0, card_id, completed_at / ${SLOT_MS},
    sum(case when pass = 1 then 1 else 0 end), sum(case when pass = 1 then 0 else 1 end)
  from evaluations
  where completed_at is not null
  group by org_id, card_id, completed_at / ${SLOT_MS}`,
  ...(['hour', 'day'] as const).flatMap((unit) =>
    LEVELS.map(
      ([board, card]) => `
  insert into evaluation_totals (org_id, unit, board_id, card_id, slot, passed, failed)
  select org_id, ${UNIT_CODES[unit]}, ${board}, ${card}, completed_at / ${SLOT_MS * TOTAL_UNITS[unit]},
    sum(case when pass = 1 then 1 else 0 end), sum(case when pass = 1 then 0 else 1 end)
  from evaluations
  where completed_at is not null
  group by ${groupBy(board, card)}completed_at / ${SLOT_MS * TOTAL_UNITS[unit]}`,
    ),
  ),
];

/**
 * evaluation_totals: evaluations by UTC hour (unit 1) and UTC day (unit 2) at evaluation_counts' levels
 * plus one card on every board (board_id 0, card_id ≠ 0), which evaluation_counts gains too; so a long
 * period reads whole days and hours and only its ragged ends in quarter-hours (docs/decisions/0582).
 */
export function evaluationTotals(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createTable('evaluation_totals')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('unit', 'integer', (c) => c.notNull())
        .addColumn('board_id', 'bigint', (c) => c.notNull())
        .addColumn('card_id', 'bigint', (c) => c.notNull())
        .addColumn('slot', 'bigint', (c) => c.notNull())
        .addColumn('passed', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('evaluation_totals_pk', ['org_id', 'unit', 'board_id', 'card_id', 'slot'])
        .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
        .execute();
      for (const statement of BACKFILL_EVALUATION_TOTALS) await sql.raw(statement).execute(db);
    },
  };
}
