/**
 * Exactly-once schedule reminders from two real processes on PostgreSQL (docs/decisions/0702): each
 * process (server/test/scheduleReminderProcess.ts) opens its own pool to one database and runs the
 * reminders for the same hourly instants, meeting before each (as two hosts with agreeing clocks), so
 * every notice is raced between them; the SMTP server receives each mail once.
 * PostgreSQL only (TEST_DATABASE_URL): SQLite has one writer per file.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock.ts';
import { projectRoot } from '../../paths.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { expectScenarioMail, scenarioInstants, seedReminderScenario } from '../../test/reminderScenario.ts';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp.ts';

function runProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/test/scheduleReminderProcess.ts'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, out })),
  );
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('schedule reminders from two processes [postgres]', () => {
  let smtp: SmtpCapture;
  let database: TestDatabase;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database?.drop();
    await smtp?.close();
  });

  it(
    'sends each reminder and digest once when both processes run at the same moments',
    { timeout: 120_000 },
    async () => {
      const people = await seedReminderScenario({ db: database.database.db, clock: new FakeClock() });
      const common = {
        DATABASE_URL: database.location,
        SMTP_URL: smtp.url,
        NOW_LIST: scenarioInstants().join(','),
        BARRIER_DIR: mkdtempSync(path.join(os.tmpdir(), 'cb-reminders-')),
      };
      const [first, second] = await Promise.all([
        runProcess({ ...common, OWNER: 'process-a', PEER: 'process-b' }),
        runProcess({ ...common, OWNER: 'process-b', PEER: 'process-a' }),
      ]);
      expect(first.code, first.out).toBe(0);
      expect(second.code, second.out).toBe(0);
      const totals = [first, second].map((p) => JSON.parse(p.out.trim().split('\n').at(-1)!));
      expect(totals.flatMap((t) => t.errors)).toEqual([]);

      expectScenarioMail(smtp, people);
      // What the two processes say they sent adds up to what arrived: 4 open and 4 missed per zone, each
      // to two assignees (claimed per recipient, decision 0714), and 3 digests per zone (one administrator).
      const sent = (key: 'open' | 'missed' | 'digests') => totals[0][key] + totals[1][key];
      expect([sent('open'), sent('missed'), sent('digests')]).toEqual([24, 24, 9]);
    },
  );
});
