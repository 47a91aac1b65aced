/**
 * Migration 0030 (docs/decisions/0769): the board view's window is read from evaluations_board_window alone,
 * the statement exactly as get-evaluations sends it. A column added to what the board view reads, and not
 * to the index, fails here.
 */
import { CompiledQuery, sql } from 'kysely';
import { expect, it } from 'vitest';
import { nameKey } from '../../../common/validation.ts';
import { buildBoard, buildCard, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase } from '../../test/harness.ts';

const DAY = 24 * 60 * 60_000;
const statements: string[] = [];

describeEachDatabase(
  'migration 0030: the board window index',
  (env) => {
    it("answers the board view's window from the index alone", async () => {
      const team = await buildTeam(env);
      const card = await buildCard(env, team.org);
      const board = await buildBoard(env, team.org, { cardIds: [card.id] });
      // The organisation's other boards hold most of its evaluations, as in any organisation of several.
      const others = await Promise.all(
        Array.from({ length: 9 }, () => buildBoard(env, team.org, { cardIds: [card.id] })),
      );
      const now = env.clock.now();
      const user = team.evaluator;
      const rows = Array.from({ length: 3000 }, (_, i) => {
        const on = i % 10 ? others[i % 9]! : board;
        return {
          org_id: team.org.id,
          board_id: on.id,
          card_id: card.id,
          user_id: user.id,
          anon_key_id: null,
          user_name: user.email,
          board_name: on.name,
          card_name: card.name,
          user_name_key: nameKey(user.email),
          board_name_key: nameKey(on.name),
          card_name_key: nameKey(card.name),
          pass: i % 3 ? (1 as const) : (0 as const),
          has_feedback: 0 as const,
          started_at: now - i * 600_000 - 60_000,
          completed_at: now - i * 600_000,
        };
      });
      // A statement holds at most a few hundred rows' values.
      for (let i = 0; i < rows.length; i += 100)
        await env.db
          .insertInto('evaluations')
          .values(rows.slice(i, i + 100))
          .execute();

      statements.length = 0;
      const since = now - 31 * DAY;
      const answer = await call(
        env,
        'getEvaluations',
        { boardID: board.id, startDateTime: new Date(since).toISOString() },
        { cookie: team.viewer.cookie },
      );
      expect(answer.status).toBe(200);
      expect((answer.body.evaluations as unknown[]).length).toBeGreaterThan(0);
      // The window: the statement that orders the board's rows from `since`, newest first.
      const window = statements.filter((text) => /completed_at"? >= /.test(text) && / desc/.test(text));
      expect(window).toHaveLength(1);
      const text = window[0]!;
      const placeholders = text.match(env.dialect === 'postgres' ? /\$\d+/g : /\?/g) ?? [];
      expect(placeholders).toHaveLength(3); // the organisation, the board, the window's start
      const values = [team.org.id, board.id, since];

      if (env.dialect === 'sqlite') {
        await sql`analyze`.execute(env.db);
        const plan = await env.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${text}`, values),
        );
        const details = plan.rows.map((row) => row.detail);
        expect(details).toEqual([expect.stringContaining('USING COVERING INDEX evaluations_board_window')]);
      } else {
        // Index-only reads need the heap's pages marked all-visible, which VACUUM does; a table this
        // small would be scanned whole, so other plans are ruled out for the look.
        await sql`vacuum analyze evaluations`.execute(env.db);
        const plan = await env.db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          await sql`set local enable_bitmapscan = off`.execute(trx);
          return trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${text}`, values));
        });
        const lines = plan.rows.map((row) => row['QUERY PLAN']);
        expect(lines[0]).toMatch(/^Index Only Scan Backward using evaluations_board_window on evaluations/);
        expect(lines.join('\n')).not.toMatch(/Sort/);
        const options = await sql<{ reloptions: string[] }>`
          select reloptions from pg_class where relname = 'evaluations'`.execute(env.db);
        expect(options.rows[0]!.reloptions).toEqual(
          expect.arrayContaining([
            'autovacuum_vacuum_threshold=2000',
            'autovacuum_vacuum_insert_threshold=2000',
          ]),
        );
      }
      const indexes =
        env.dialect === 'sqlite'
          ? await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'index' and tbl_name = 'evaluations'`.execute(
              env.db,
            )
          : await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where tablename = 'evaluations'`.execute(env.db);
      const names = indexes.rows.map((row) => row.name);
      expect(names).toContain('evaluations_board_window');
      expect(names).not.toContain('evaluations_board_completed');
    });
  },
  { onQuery: (text) => statements.push(text) },
);
