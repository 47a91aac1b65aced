import type { Db } from './db/index.ts';
import { randomToken } from './auth/tokens.ts';

/**
 * The server secret: SESSION_SECRET when set, else one generated on first start and kept in the database,
 * so every process of an installation shares it without configuration.
 */
export async function loadOrCreateSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const existing = await db
    .selectFrom('app_settings')
    .select('value')
    .where('name', '=', 'secret')
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('app_settings')
    .values({ name: 'secret', value: randomToken(48) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db
    .selectFrom('app_settings')
    .select('value')
    .where('name', '=', 'secret')
    .executeTakeFirstOrThrow();
  return stored.value;
}
