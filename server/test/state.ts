/**
 * What an organisation holds, table by table, for tests that check a refused call wrote nothing: read the
 * state before, make the call, and expect the same state after.
 */
import type { Kysely } from 'kysely';
import type { TestEnv } from './harness.ts';

/** The tables below all carry org_id; only their ordering columns differ. */
type TenantRow = { org_id: number; id: number; board_id: number; card_id: number };

const TABLES = {
  boards: 'boards',
  boardCards: 'board_cards',
  cards: 'cards',
  items: 'card_items',
  evaluations: 'evaluations',
  results: 'results',
  feedback: 'feedback',
} as const;

type Part = keyof typeof TABLES;

/** A reader of the named parts of an organisation's rows, each in a stable order. */
export function tenantState<P extends Part>(...parts: P[]) {
  return async (env: TestEnv, orgId: number): Promise<Record<P, Record<string, unknown>[]>> => {
    const rows = await Promise.all(
      parts.map((part) => {
        const db = env.db as unknown as Kysely<Record<string, TenantRow>>;
        const query = db
          .selectFrom(TABLES[part] as string)
          .selectAll()
          .where('org_id', '=', orgId);
        return (
          part === 'boardCards' ? query.orderBy('board_id').orderBy('card_id') : query.orderBy('id')
        ).execute() as Promise<Record<string, unknown>[]>;
      }),
    );
    return Object.fromEntries(parts.map((part, i) => [part, rows[i]])) as Record<
      P,
      Record<string, unknown>[]
    >;
  };
}
