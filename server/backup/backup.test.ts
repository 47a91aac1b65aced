/**
 * `npm run backup` / `npm run restore` round trip (decision 0604), on SQLite and PostgreSQL: data written
 * through the API, backed up by the command while the app runs, more written after; restored by the
 * command into a new empty database, where the app reads back what was backed up, and only that.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { FakeClock } from '../clock.ts';
import { openAndMigrate, openDatabase, type Database } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { projectRoot } from '../paths.ts';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../test/databases.ts';
import { buildTeam, DEFAULT_PASSWORD } from '../test/factories.ts';
import { call, testConfig } from '../test/harness.ts';

/** The command as `npm run backup|restore` runs it, from source. */
function cli(args: string[], databaseUrl: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/backup/cli.ts', ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

for (const dialect of TEST_DIALECTS) {
  describe(`backup and restore [${dialect}]`, () => {
    let dir: string;
    const cleanups: (() => Promise<void>)[] = [];
    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'cb-backup-'));
    });
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    async function emptyDatabase(name: string): Promise<string> {
      if (dialect === 'sqlite') return `sqlite:${path.join(dir, `${name}.sqlite`)}`;
      const created: TestDatabase = await createTestDatabase('postgres', { migrate: false });
      cleanups.push(() => created.drop());
      return created.location;
    }
    const clock = new FakeClock();
    const config = testConfig({ smtpUrl: undefined, sessionSecret: 'backup-test-secret-0123456789abcdef' });
    async function appOn(database: Database): Promise<App> {
      const app = await buildApp({ config, database, clock, logger: false, webDir: '/nonexistent' });
      cleanups.push(async () => {
        await app.app.close();
        await database.close();
      });
      return app;
    }

    it('restores into a new empty database what was backed up, and refuses a database in use', async () => {
      const sourceUrl = await emptyDatabase('source');
      const source =
        dialect === 'sqlite'
          ? openDatabase({ kind: 'sqlite', file: sourceUrl.slice('sqlite:'.length) })
          : openDatabase({ kind: 'postgres', url: sourceUrl });
      await migrateToLatest(source.db, dialect);
      const app = await appOn(source);
      const team = await buildTeam({ db: source.db, clock });
      const cookie = team.admin.cookie;
      const add = (name: string) =>
        call(app, 'addBoard', { name, cardIDs: [], hasAnonymous: false }, { cookie });
      expect((await add('Backed-up line')).status).toBe(200);
      const board = (await call(app, 'getBoards', {}, { cookie })).body.boards[0];
      expect(
        (await call(app, 'addFeedback', { boardID: board.id, content: '<p>Kept note</p>' }, { cookie }))
          .status,
      ).toBe(200);

      const file = path.join(dir, dialect === 'sqlite' ? 'backup.sqlite' : 'backup.dump');
      const backedUp = await cli(['backup', file], sourceUrl);
      expect(backedUp, backedUp.output).toMatchObject({ code: 0 });
      expect(existsSync(file)).toBe(true);
      expect(existsSync(`${file}.partial`)).toBe(false);
      expect((await add('After backup line')).status).toBe(200);

      const targetUrl = await emptyDatabase('target');
      const restored = await cli(['restore', file], targetUrl);
      expect(restored, restored.output).toMatchObject({ code: 0 });
      // A database with tables is not overwritten unless asked.
      const again = await cli(['restore', file], targetUrl);
      expect(again.code).toBe(1);
      expect(again.output).toContain('is not empty');

      const target = await openAndMigrate(
        dialect === 'sqlite'
          ? { kind: 'sqlite', file: targetUrl.slice('sqlite:'.length) }
          : { kind: 'postgres', url: targetUrl },
      );
      const back = await appOn(target);
      const boards = await call(back, 'getBoards', {}, { cookie });
      expect(boards.status).toBe(200);
      expect(boards.body.boards.map((b: { name: string }) => b.name)).toEqual(['Backed-up line']);
      const signIn = await call(back, 'login', { username: team.owner.email, password: DEFAULT_PASSWORD });
      expect(signIn.status).toBe(200);
      const notes = await target.db
        .selectFrom('feedback')
        .select('content')
        .where('org_id', '=', team.org.id)
        .execute();
      expect(notes).toEqual([{ content: '<p>Kept note</p>' }]);

      // Forced, it replaces the database's contents with the backup's.
      if (dialect === 'postgres') {
        const replaced = await cli(['restore', file, '--force'], sourceUrl);
        expect(replaced, replaced.output).toMatchObject({ code: 0 });
        const names = await source.db
          .selectFrom('boards')
          .select('name')
          .where('org_id', '=', team.org.id)
          .execute();
        expect(names).toEqual([{ name: 'Backed-up line' }]);
      }
    }, 60_000);

    it('says what is wrong with a missing backup file', async () => {
      const answer = await cli(['restore', path.join(dir, 'nothing.dump')], await emptyDatabase('empty'));
      expect(answer.code).toBe(1);
      expect(answer.output).toContain('There is no backup file');
    });
  });
}
