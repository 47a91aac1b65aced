import { sql } from 'kysely';
import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * A revision per board, changed by the database itself in the transaction of every write that changes what
 * the board view answers (docs/decisions/0784): a completed evaluation of the board written, changed in any
 * column or deleted (its feedback flag, its evaluator's removal), a card put on or taken off the board, a
 * card of the board deleted or brought back. A server keeps a board's written answer while the revision it
 * was read at is the board's (server/modules/shared/boardAnswers.ts).
 *
 * Triggers, not the writers' code: every writer is covered, now and later, including SQL alone (the
 * maintenance purge, a seed, a statement run by hand). A revision is a random number below 2^53, never a
 * count: a database restored from a backup, then written to, cannot arrive at a revision a server saw for
 * other rows. A revision is only written for a board that exists (a board's deletion takes its row with it).
 */
export function boardRevisions(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createTable('board_revisions')
        .addColumn('board_id', 'bigint', (c) => c.primaryKey().references('boards.id').onDelete('cascade'))
        .addColumn('revision', 'bigint', (c) => c.notNull())
        .execute();
      if (dialect === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
      // Boards there are now start with a revision, so their answers can be kept from the first request.
      await sql`insert into board_revisions (board_id, revision)
        select id, ${newRevision(dialect)} from boards`.execute(db);
    },
  };
}

const newRevision = (dialect: DialectName) =>
  dialect === 'postgres'
    ? sql`floor(random() * 9007199254740991)::bigint`
    : sql`abs(random() % 9007199254740991)`;

async function postgresTriggers(db: UntypedDb) {
  // For statement triggers over transition tables: a statement that writes many rows changes each board's
  // revision once, not once a row; boards in id order, so that two statements changing the same boards wait
  // for each other instead of deadlocking.
  await sql`create function bump_board_revisions(board_ids bigint[]) returns void language sql as $$
    insert into board_revisions (board_id, revision)
      select b.id, floor(random() * 9007199254740991)::bigint from boards b where b.id = any(board_ids)
      order by b.id
      on conflict (board_id) do update set revision = excluded.revision
  $$`.execute(db);
  // Deleted rows come many to a statement (a board's or an organisation's data deleted): a statement trigger.
  await sql`create function evaluations_delete_board_revision() returns trigger language plpgsql as $$
    begin
      perform bump_board_revisions(array(select distinct board_id from old_rows where completed_at is not null));
      return null;
    end
  $$`.execute(db);
  await sql`create trigger evaluations_delete_board_revision after delete on evaluations
    referencing old table as old_rows for each statement execute function evaluations_delete_board_revision()`.execute(
    db,
  );
  // Starting an evaluation inserts a row, and completing it updates that row, on the paths whose time counts
  // most (issue 15): row triggers, whose conditions are checked without calling anything (a start calls
  // nothing), and no transition tables to fill (a statement trigger over them cost a completion ~0.2 ms).
  // The update's runs BEFORE the row is written: the board's revision is then taken right after the
  // evaluation's row lock and before anything else the statement locks (a completion's counters, claimed in
  // the same statement), the order an evaluation's deletion takes them in too (its first statement updates
  // the row), so the two never wait for each other in opposite orders. The board exists: its evaluations
  // hold it.
  await sql`create function evaluation_board_revision() returns trigger language plpgsql as $$
    begin
      insert into board_revisions (board_id, revision)
        values (new.board_id, floor(random() * 9007199254740991)::bigint)
        on conflict (board_id) do update set revision = excluded.revision;
      if tg_op = 'UPDATE' and old.board_id is distinct from new.board_id then
        insert into board_revisions (board_id, revision)
          values (old.board_id, floor(random() * 9007199254740991)::bigint)
          on conflict (board_id) do update set revision = excluded.revision;
      end if;
      return new;
    end
  $$`.execute(db);
  await sql`create trigger evaluations_insert_board_revision after insert on evaluations
    for each row when (new.completed_at is not null)
    execute function evaluation_board_revision()`.execute(db);
  await sql`create trigger evaluations_update_board_revision before update on evaluations
    for each row when (old.completed_at is not null or new.completed_at is not null)
    execute function evaluation_board_revision()`.execute(db);
  for (const event of ['insert', 'delete'] as const) {
    const name = sql.raw(`board_cards_${event}_board_revision`);
    const rows = event === 'insert' ? sql.raw('new_rows') : sql.raw('old_rows');
    await sql`create function ${name}() returns trigger language plpgsql as $$
      begin
        perform bump_board_revisions(array(select distinct board_id from ${rows}));
        return null;
      end
    $$`.execute(db);
    await sql`create trigger ${name} after ${sql.raw(event)} on board_cards
      referencing ${event === 'insert' ? sql`new table as new_rows` : sql`old table as old_rows`}
      for each statement execute function ${name}()`.execute(db);
  }
  await sql`create function cards_deleted_board_revision() returns trigger language plpgsql as $$
    begin
      perform bump_board_revisions(array(
        select distinct bc.board_id from board_cards bc join new_rows n on n.id = bc.card_id
          join old_rows o on o.id = n.id
        where n.deleted_at is distinct from o.deleted_at));
      return null;
    end
  $$`.execute(db);
  await sql`create trigger cards_deleted_board_revision after update on cards
    referencing old table as old_rows new table as new_rows
    for each statement execute function cards_deleted_board_revision()`.execute(db);
}

async function sqliteTriggers(db: UntypedDb) {
  // SQLite has row triggers only; a row's costs a microsecond or two, in the process.
  const bump = (boardId: string) =>
    sql.raw(`insert into board_revisions (board_id, revision)
      select id, abs(random() % 9007199254740991) from boards where id = ${boardId}
      on conflict (board_id) do update set revision = excluded.revision;`);
  await sql`create trigger evaluations_insert_board_revision after insert on evaluations
    when new.completed_at is not null
    begin ${bump('new.board_id')} end`.execute(db);
  await sql`create trigger evaluations_delete_board_revision after delete on evaluations
    when old.completed_at is not null
    begin ${bump('old.board_id')} end`.execute(db);
  await sql`create trigger evaluations_update_board_revision after update on evaluations
    when new.completed_at is not null or old.completed_at is not null
    begin ${bump('new.board_id')} ${bump('old.board_id')} end`.execute(db);
  await sql`create trigger board_cards_insert_board_revision after insert on board_cards
    begin ${bump('new.board_id')} end`.execute(db);
  await sql`create trigger board_cards_delete_board_revision after delete on board_cards
    begin ${bump('old.board_id')} end`.execute(db);
  await sql`create trigger cards_deleted_board_revision after update of deleted_at on cards
    when new.deleted_at is not old.deleted_at
    begin
      insert into board_revisions (board_id, revision)
        select board_id, abs(random() % 9007199254740991) from board_cards where card_id = new.id
        on conflict (board_id) do update set revision = excluded.revision;
    end`.execute(db);
}
