import { sql } from 'kysely';
import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * A revision per board and UTC day of completion, changed by the same triggers as the board's revision
 * (migration 0031) whenever a completed evaluation of that board and day is written, changed or deleted
 * (docs/decisions/0786). A server whose kept answer of a board is at an older revision reads again only the
 * rows from the first day whose revision changed, usually today's, and takes the older ones from the answer
 * it kept (server/modules/shared/evaluations.ts).
 *
 * `day` is the whole number of days from 1970-01-01 UTC to `completed_at`. No row is written for a day
 * before its first write after this migration: a day with no row and a day with one are told apart, so the
 * first write of any day is seen. A board's deletion takes its rows with it.
 *
 * On PostgreSQL every trigger takes the board's revision first and then its days' (boards in id order, then
 * their days in order), so that writers of one board wait for each other on the board's row and never on
 * its days' rows in opposite orders.
 */
export function boardDayRevisions(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await db.schema
        .createTable('board_day_revisions')
        .addColumn('board_id', 'bigint', (c) => c.notNull().references('boards.id').onDelete('cascade'))
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('revision', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('board_day_revisions_pk', ['board_id', 'day'])
        .execute();
      if (dialect === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
    },
  };
}

const DAY_MS = 86_400_000;

async function postgresTriggers(db: UntypedDb) {
  await sql`create function bump_board_day_revisions(board_days bigint[], days integer[]) returns void
    language sql as $$
    insert into board_day_revisions (board_id, day, revision)
      select d.board_id, d.day, floor(random() * 9007199254740991)::bigint
      from unnest(board_days, days) as d(board_id, day) join boards b on b.id = d.board_id
      order by d.board_id, d.day
      on conflict (board_id, day) do update set revision = excluded.revision
  $$`.execute(db);
  // The deletion's statement trigger: the boards' revisions (in id order), then their days'.
  await sql`create or replace function evaluations_delete_board_revision() returns trigger language plpgsql as $$
    declare
      changed record;
    begin
      perform bump_board_revisions(array(select distinct board_id from old_rows where completed_at is not null));
      select array_agg(board_id order by board_id, day) as boards, array_agg(day order by board_id, day) as days
        into changed
        from (select distinct board_id, (completed_at / ${sql.lit(DAY_MS)})::integer as day
              from old_rows where completed_at is not null) d;
      if changed.boards is not null then
        perform bump_board_day_revisions(changed.boards, changed.days);
      end if;
      return null;
    end
  $$`.execute(db);
  // Inserts and updates (row triggers, BEFORE for updates: migration 0031): the board, then its day, then,
  // for a row moved to another board or day, those it left.
  await sql`create or replace function evaluation_board_revision() returns trigger language plpgsql as $$
    begin
      insert into board_revisions (board_id, revision)
        values (new.board_id, floor(random() * 9007199254740991)::bigint)
        on conflict (board_id) do update set revision = excluded.revision;
      if tg_op = 'UPDATE' and old.board_id is distinct from new.board_id then
        insert into board_revisions (board_id, revision)
          values (old.board_id, floor(random() * 9007199254740991)::bigint)
          on conflict (board_id) do update set revision = excluded.revision;
      end if;
      if new.completed_at is not null then
        insert into board_day_revisions (board_id, day, revision)
          values (new.board_id, (new.completed_at / ${sql.lit(DAY_MS)})::integer,
                  floor(random() * 9007199254740991)::bigint)
          on conflict (board_id, day) do update set revision = excluded.revision;
      end if;
      if tg_op = 'UPDATE' and old.completed_at is not null and (
          new.completed_at is null or old.board_id is distinct from new.board_id
          or old.completed_at / ${sql.lit(DAY_MS)} <> new.completed_at / ${sql.lit(DAY_MS)}) then
        insert into board_day_revisions (board_id, day, revision)
          select old.board_id, (old.completed_at / ${sql.lit(DAY_MS)})::integer,
                 floor(random() * 9007199254740991)::bigint
          from boards where id = old.board_id
          on conflict (board_id, day) do update set revision = excluded.revision;
      end if;
      return new;
    end
  $$`.execute(db);
}

async function sqliteTriggers(db: UntypedDb) {
  // SQLite's triggers of migration 0031 are made again with their days' upserts after the board's.
  const board = (boardId: string) =>
    sql.raw(`insert into board_revisions (board_id, revision)
      select id, abs(random() % 9007199254740991) from boards where id = ${boardId}
      on conflict (board_id) do update set revision = excluded.revision;`);
  const day = (row: 'new' | 'old') =>
    sql.raw(`insert into board_day_revisions (board_id, day, revision)
      select id, cast(${row}.completed_at / ${DAY_MS} as integer), abs(random() % 9007199254740991) from boards
      where id = ${row}.board_id and ${row}.completed_at is not null
      on conflict (board_id, day) do update set revision = excluded.revision;`);
  for (const event of ['insert', 'delete', 'update'] as const)
    await sql`drop trigger ${sql.raw(`evaluations_${event}_board_revision`)}`.execute(db);
  await sql`create trigger evaluations_insert_board_revision after insert on evaluations
    when new.completed_at is not null
    begin ${board('new.board_id')} ${day('new')} end`.execute(db);
  await sql`create trigger evaluations_delete_board_revision after delete on evaluations
    when old.completed_at is not null
    begin ${board('old.board_id')} ${day('old')} end`.execute(db);
  await sql`create trigger evaluations_update_board_revision after update on evaluations
    when new.completed_at is not null or old.completed_at is not null
    begin ${board('new.board_id')} ${board('old.board_id')} ${day('new')} ${day('old')} end`.execute(db);
}
