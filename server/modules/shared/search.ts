/**
 * The filter and keyset cursor shared by search-evaluations, search-feedback and the two Excel exports
 * (docs/decisions/0202-search-keyset-paging.md).
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ExportRequest, SearchRequest } from '../../../common/api/inputs.ts';
import { nameKey } from '../../../common/validation.ts';
import { containsPattern, likeEscape } from '../../db/dialect.ts';
import { badRequest } from '../../errors.ts';
import type { Caller } from './caller.ts';

export const searchMessages = {
  cursorNeedsTime: 'previousDateTime is required with previousID.',
};

export interface SearchFilter {
  /** An administrator in editing mode sees every member's rows; everyone else sees their own. */
  everyone: boolean;
  userId: number | null;
  from: number | null;
  to: number | null;
  /** Rows after it are left out, so that later pages and the export see the set the first page saw. */
  max: number | null;
  /** The last row of the previous page. */
  after: { time: number; id: number | null } | null;
  quantity: number;
  /** LIKE patterns over the lower-cased name keys, or null for no filter. */
  boardName: string | null;
  cardName: string | null;
  userName: string | null;
}

const epoch = (value: string | null | undefined) => (value ? Date.parse(value) : null);

function pattern(text: string | undefined): string | null {
  const key = nameKey((text ?? '').trim());
  return key ? containsPattern(key) : null;
}

export function searchFilter(input: SearchRequest, caller: Caller): SearchFilter {
  if (input.previousID != null && !input.previousDateTime) {
    throw badRequest(searchMessages.cursorNeedsTime, 'previousDateTime');
  }
  const previous = epoch(input.previousDateTime);
  return {
    everyone: input.isEditing === true && caller.managesAll,
    userId: caller.who.userId,
    from: epoch(input.startDateTime),
    to: epoch(input.endDateTime),
    max: epoch(input.maxDateTime),
    after: previous === null ? null : { time: previous, id: input.previousID ?? null },
    quantity: input.quantity,
    boardName: pattern(input.boardName),
    cardName: pattern(input.cardName),
    userName: pattern(input.userName),
  };
}

/**
 * The WHERE conditions of a search over `table`, ordered by `time` then id, both descending. The time
 * bounds come first so that the (org_id, time, id) and (org_id, user_id, time, id) indexes take them as a
 * range: a page costs the same wherever it starts (no OFFSET).
 */
export function searchConditions(
  table: 'evaluations' | 'feedback',
  time: 'completed_at' | 'created_at',
  filter: SearchFilter,
): RawBuilder<SqlBool>[] {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const timeRef = column(time);
  const conditions: RawBuilder<SqlBool>[] = [sql<SqlBool>`${timeRef} is not null`];
  if (!filter.everyone) {
    // A caller without a user id (never the case for a search) sees nothing rather than everything.
    conditions.push(sql<SqlBool>`${column('user_id')} = ${filter.userId ?? -1}`);
  }
  const upper = [filter.to, filter.max, filter.after?.time].filter(
    (v): v is number => v !== null && v !== undefined,
  );
  if (upper.length) conditions.push(sql<SqlBool>`${timeRef} <= ${Math.min(...upper)}`);
  if (filter.from !== null) conditions.push(sql<SqlBool>`${timeRef} >= ${filter.from}`);
  if (filter.after) {
    const { time: t, id } = filter.after;
    conditions.push(
      id === null
        ? sql<SqlBool>`${timeRef} < ${t}`
        : sql<SqlBool>`(${timeRef} < ${t} or ${column('id')} < ${id})`,
    );
  }
  for (const [key, value] of [
    ['board_name_key', filter.boardName],
    ['card_name_key', filter.cardName],
    ['user_name_key', filter.userName],
  ] as const) {
    if (value !== null) conditions.push(sql<SqlBool>`${column(key)} like ${value} escape ${likeEscape}`);
  }
  return conditions;
}

/** The search filter without its cursor and page size, frozen at maxDateTime (default: now). */
export function exportFilter(input: ExportRequest, caller: Caller, now: number): SearchFilter {
  const filter = searchFilter({ ...input, previousDateTime: null, previousID: null }, caller);
  return { ...filter, max: filter.max ?? now };
}
