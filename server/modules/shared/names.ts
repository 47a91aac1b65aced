/** Names of boards and cards: unique within the organisation among live ones, case-insensitively. */
import { nameKey, messages as rules } from '../../../common/validation.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { conflict } from '../../errors.ts';

export const unique = (ids: readonly number[]) => [...new Set(ids)];

/** Refuses a name a live board (or card) of the organisation already has, other than `exceptId`. */
export async function ensureNameFree(
  db: Db,
  table: 'boards' | 'cards',
  where: { orgId: number; name: string; exceptId?: number | undefined },
  field: string,
) {
  const taken = await db
    .selectFrom(table)
    .select('id')
    .where('org_id', '=', where.orgId)
    .where('name_key', '=', nameKey(where.name))
    .where('deleted_at', 'is', null)
    .$if(where.exceptId !== undefined, (qb) => qb.where('id', '!=', where.exceptId!))
    .executeTakeFirst();
  if (taken) throw conflict(rules.nameExists, field);
}

/** Answers a unique-index refusal (two creations racing for one name) as the duplicate-name message. */
export async function guardName<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(rules.nameExists, field);
    throw error;
  }
}
