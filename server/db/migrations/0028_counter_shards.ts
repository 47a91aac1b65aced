import { sql } from 'kysely';
import type { DialectName, UntypedDb } from '../dialect.ts';

/**
 * The analytics counters (evaluation_counts, evaluation_totals, item_totals) get a `shard` column, last in
 * their primary keys (docs/decisions/0746): a completion adds to the rows of its shard only (its
 * evaluation's id modulo COUNTER_SHARDS on PostgreSQL), so completions in one organisation no longer wait
 * on one another's row locks for the organisation's rows until each commits. Readers already sum every row
 * of a range, shards included. Existing rows become shard 0.
 */
const TABLES = [
  {
    name: 'evaluation_counts',
    columns: 'org_id, board_id, card_id, slot, passed, failed',
    create: `create table evaluation_counts_new (
      org_id bigint not null references organizations (id),
      board_id bigint not null,
      card_id bigint not null,
      slot bigint not null,
      passed integer not null,
      failed integer not null,
      shard integer not null default 0,
      constraint evaluation_counts_pk primary key (org_id, board_id, card_id, slot, shard)
    ) without rowid`,
    key: 'org_id, board_id, card_id, slot, shard',
    indexes: ['create index evaluation_counts_card on evaluation_counts (org_id, card_id, slot, board_id)'],
  },
  {
    name: 'evaluation_totals',
    columns: 'org_id, unit, board_id, card_id, slot, passed, failed',
    create: `create table evaluation_totals_new (
      org_id bigint not null references organizations (id),
      unit integer not null,
      board_id bigint not null,
      card_id bigint not null,
      slot bigint not null,
      passed integer not null,
      failed integer not null,
      shard integer not null default 0,
      constraint evaluation_totals_pk primary key (org_id, unit, board_id, card_id, slot, shard)
    ) without rowid`,
    key: 'org_id, unit, board_id, card_id, slot, shard',
    indexes: [],
  },
  {
    name: 'item_totals',
    columns: 'org_id, board_id, item_id, unit, slot, kind, passed, failed, na, answers',
    create: `create table item_totals_new (
      org_id bigint not null,
      board_id bigint not null,
      item_id bigint not null,
      unit integer not null,
      slot bigint not null,
      kind integer not null,
      passed integer not null,
      failed integer not null,
      na integer not null,
      answers integer not null,
      shard integer not null default 0,
      constraint item_totals_pk primary key (org_id, unit, board_id, item_id, slot, kind, shard)
    ) without rowid`,
    key: 'org_id, unit, board_id, item_id, slot, kind, shard',
    indexes: [],
  },
];

export function counterShards(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      for (const table of TABLES) {
        if (dialect === 'postgres') {
          // A constant default: no rewrite of the table, only the key's index is built again.
          await sql.raw(`alter table ${table.name} add column shard smallint not null default 0`).execute(db);
          await sql.raw(`alter table ${table.name} drop constraint ${table.name}_pk`).execute(db);
          await sql
            .raw(`alter table ${table.name} add constraint ${table.name}_pk primary key (${table.key})`)
            .execute(db);
          continue;
        }
        // SQLite cannot change a primary key: the table is made again (WITHOUT ROWID, the key is the data).
        await sql.raw(table.create).execute(db);
        await sql
          .raw(
            `insert into ${table.name}_new (${table.columns}, shard) select ${table.columns}, 0 from ${table.name}`,
          )
          .execute(db);
        await sql.raw(`drop table ${table.name}`).execute(db);
        await sql.raw(`alter table ${table.name}_new rename to ${table.name}`).execute(db);
        for (const index of table.indexes) await sql.raw(index).execute(db);
      }
    },
  };
}
