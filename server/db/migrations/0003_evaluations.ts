import { sql } from 'kysely';
import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * Evaluations and feedback, shaped for their searches (docs/decisions/0201, 0202):
 * - lower-cased keys of the snapshot names, written by the application (nameKey: NFKC + toLowerCase), so
 *   that name containment is case-insensitive the same way on SQLite and PostgreSQL, non-ASCII included;
 * - a board-and-card index for the board view's "last 3 evaluations" of each card.
 */
export function evaluationsSearch(_dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      for (const table of ['evaluations', 'feedback']) {
        for (const column of ['board_name_key', 'card_name_key', 'user_name_key']) {
          await db.schema
            .alterTable(table)
            .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
            .execute();
        }
        // Rows written before this migration: SQL lower() folds ASCII only, which is what they can hold here
        // (the tables are new with this migration's issue); new rows get the application's full folding.
        await db
          .updateTable(table)
          .set({
            board_name_key: sql`lower(board_name)`,
            card_name_key: sql`lower(coalesce(card_name, ''))`,
            user_name_key: sql`lower(user_name)`,
          })
          .execute();
      }
      // The board view's "Last 3 Evaluations": each card's newest completed evaluations on one board.
      await db.schema
        .createIndex('evaluations_board_card_completed')
        .on('evaluations')
        .columns(['org_id', 'board_id', 'card_id', 'completed_at', 'id'])
        .execute();
    },
  };
}
