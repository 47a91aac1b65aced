import { sql } from 'kysely';
import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * The board view reads its window from an index that holds what it draws (docs/decisions/0769): one board's
 * evaluations by completed time and id, with the ten columns a member's board view reads (boardViewColumns
 * in server/modules/shared/evaluations.ts), so the ~900 rows of a busy board's 31 days come from a few
 * adjacent index pages instead of one table page each. It replaces evaluations_board_completed, whose
 * columns are its first three: every query that used that one can use this one.
 *
 * PostgreSQL reads an index alone only for heap pages its visibility map marks all-visible, which VACUUM
 * sets: evaluations is vacuumed after every 2,000 inserted or changed rows instead of a fifth of the table,
 * so the recent pages, the ones the board view reads, are marked within minutes rather than weeks.
 */
const BOARD_WINDOW_KEY = ['org_id', 'board_id', 'completed_at', 'id'] as const;
const BOARD_WINDOW_INCLUDED = [
  'card_id',
  'pass',
  'user_id',
  'has_feedback',
  'completed_on_device',
  'user_name',
  'board_name',
  'card_name',
] as const;

export function boardWindowIndex(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      if (dialect === 'postgres') {
        // Key columns order the scan; the included ones are only carried.
        await sql`create index evaluations_board_window on evaluations
          (${sql.join(BOARD_WINDOW_KEY.map((c) => sql.ref(c)))})
          include (${sql.join(BOARD_WINDOW_INCLUDED.map((c) => sql.ref(c)))})`.execute(db);
        await sql`alter table evaluations set (
          autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000,
          autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 2000
        )`.execute(db);
      } else {
        // SQLite has no INCLUDE: the carried columns are key columns after the id, which orders nothing.
        await db.schema
          .createIndex('evaluations_board_window')
          .on('evaluations')
          .columns([...BOARD_WINDOW_KEY, ...BOARD_WINDOW_INCLUDED])
          .execute();
      }
      await db.schema.dropIndex('evaluations_board_completed').execute();
    },
  };
}
