/**
 * The yardstick of issue 15's per-request overhead: bare Fastify and the same database driver as the app
 * (better-sqlite3 or pg, the same pool size and pragmas), answering get-boards' two SELECTs for a fixed
 * organisation, with no session, validation, idempotency, presentation schema or logging. Reports its port
 * to the parent over IPC, as bench/server.ts does.
 */
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const url = process.env.DATABASE_URL!;
const orgId = Number(process.env.BENCH_ORG_ID);

// get-boards' statements as Kysely writes them for the app (server/modules/boards/boards.ts, listBoards).
const BOARDS = `select "id", "name", "has_anonymous" from "boards" where "org_id" = $1 and "deleted_at" is null order by "name_key", "id"`;
const CARDS = `select "board_cards"."board_id", "board_cards"."card_id" from "board_cards" inner join "cards" on "cards"."id" = "board_cards"."card_id" inner join "boards" on "boards"."id" = "board_cards"."board_id" where "board_cards"."org_id" = $1 and "cards"."deleted_at" is null and "boards"."deleted_at" is null order by "cards"."name_key", "cards"."id"`;

type BoardRow = { id: number; name: string; has_anonymous: number };
type CardRow = { board_id: number; card_id: number };
let query: (text: string) => Promise<unknown[]>;
if (url.startsWith('sqlite:')) {
  const sqlite = new SQLite(url.slice('sqlite:'.length));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  const statements = new Map<string, SQLite.Statement>();
  query = async (text) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = sqlite.prepare(text.replaceAll('$1', '?'))));
    return statement.all(orgId);
  };
} else {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pg.types.setTypeParser(20, Number);
  query = async (text) => (await pool.query(text, [orgId])).rows as unknown[];
}

const app = Fastify({ logger: false });
app.post('/api/get-boards', async () => {
  const rows = (await query(BOARDS)) as BoardRow[];
  const cards = (await query(CARDS)) as CardRow[];
  const byBoard = new Map<number, number[]>();
  for (const row of cards) {
    const list = byBoard.get(row.board_id) ?? [];
    list.push(row.card_id);
    byBoard.set(row.board_id, list);
  }
  return {
    boards: rows.map((row) => ({
      id: row.id,
      name: row.name,
      cardIDs: byBoard.get(row.id) ?? [],
      hasAnonymous: row.has_anonymous === 1,
    })),
  };
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as AddressInfo).port });
const stop = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('disconnect', stop);
