import { ref, withId, type DialectName, type UntypedDb } from '../dialect.ts';

/**
 * Corrective actions (issue 12, docs/decisions/0670-0672): actions raised from a failed item or on a board,
 * and their history. The due date is a calendar day (YYYY-MM-DD text, which sorts as it reads) counted in
 * the time zone the action was raised in; due_reminded_at and overdue_reminded_at are the reminders'
 * claims, taken by an UPDATE … WHERE … IS NULL so that of two app instances only one sends.
 */
export function actions(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await withId(db.schema.createTable('actions'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('board_id', 'bigint', (c) => ref('boards')(c).notNull())
        .addColumn('board_name', 'text', (c) => c.notNull())
        .addColumn('evaluation_id', 'bigint', (c) => ref('evaluations', 'set null')(c))
        .addColumn('card_id', 'bigint')
        .addColumn('card_name', 'text')
        .addColumn('item_id', 'bigint')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('due_date', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('assignee_id', 'bigint', (c) => ref('users')(c).notNull())
        .addColumn('raised_by_id', 'bigint', (c) => ref('users')(c).notNull())
        .addColumn('raised_by_name', 'text', (c) => c.notNull())
        .addColumn('close_note', 'text')
        .addColumn('closed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('due_reminded_at', 'bigint')
        .addColumn('overdue_reminded_at', 'bigint')
        .execute();
      // The Actions tab's keyset (due date, id) for all, assigned and raised actions; the board's marks.
      const indexes: [string, string[]][] = [
        ['actions_due', ['org_id', 'due_date', 'id']],
        ['actions_assignee_due', ['org_id', 'assignee_id', 'due_date', 'id']],
        ['actions_raiser_due', ['org_id', 'raised_by_id', 'due_date', 'id']],
        ['actions_board_status', ['org_id', 'board_id', 'status']],
        ['actions_evaluation', ['org_id', 'evaluation_id']],
        // The reminders' scan over every organisation: open actions by due date.
        ['actions_status_due', ['status', 'due_date']],
      ];
      for (const [name, columns] of indexes) {
        await db.schema.createIndex(name).on('actions').columns(columns).execute();
      }

      await withId(db.schema.createTable('action_history'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('action_id', 'bigint', (c) => ref('actions', 'cascade')(c).notNull())
        .addColumn('user_id', 'bigint')
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('action_history_action')
        .on('action_history')
        .columns(['org_id', 'action_id', 'id'])
        .execute();
    },
  };
}
