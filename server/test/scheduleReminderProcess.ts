/**
 * A separate process that runs the schedule reminders (docs/decisions/0702) against a database at given
 * moments, for server/modules/schedules/reminders.processes.test.ts: it runs sendScheduleReminders for
 * each instant of NOW_LIST, meeting its PEER process before each one (files in BARRIER_DIR), so the two run
 * the same instant at the same moment as two hosts with agreeing clocks would; then prints one JSON line
 * with what it sent.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import type { Services } from '../context.ts';
import { openDatabase } from '../db/index.ts';
import { createMailer } from '../mail/mailer.ts';
import { sendScheduleReminders } from '../modules/schedules/reminders.ts';
import { FakeClock } from '../clock.ts';
import type { Storage } from '../storage/storage.ts';
import { exportInProcess } from '../exports/tasks.ts';

const env = process.env;
const config = loadConfig({
  NODE_ENV: 'test',
  APP_URL: 'http://checkboard.test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: env.DATABASE_URL!,
  SMTP_URL: env.SMTP_URL!,
});
const database = openDatabase({ kind: 'postgres', url: env.DATABASE_URL! }, { poolSize: 4 });
const mailer = createMailer(config, { info() {}, warn() {} } as never);
const services: Services = {
  config,
  db: database.db,
  dialect: 'postgres',
  clock: new FakeClock(),
  mailer,
  secret: 'unused',
  storage: null as unknown as Storage,
  exports: exportInProcess(database.db),
};

const instants = env.NOW_LIST!.split(',').map(Number);
const owner = env.OWNER!;
const barrier = env.BARRIER_DIR!;
// Connect before the first instant, so neither process starts late by its connection's set-up.
await database.db.selectFrom('schedules').select('id').limit(1).execute();

/** Waits until the peer process has also reached step `index`: the two run each instant together. */
async function meet(index: number) {
  writeFileSync(path.join(barrier, `${owner}-${index}`), '');
  const peer = path.join(barrier, `${env.PEER!}-${index}`);
  while (!existsSync(peer)) await new Promise((resolve) => setTimeout(resolve, 2));
}

const totals = { open: 0, missed: 0, digests: 0, errors: [] as string[] };
for (const [index, now] of instants.entries()) {
  await meet(index);
  const outcome = await sendScheduleReminders(services, now, `${owner}-${index}`);
  totals.open += outcome.open;
  totals.missed += outcome.missed;
  totals.digests += outcome.digests;
  totals.errors.push(...outcome.errors.map(String));
}
process.stdout.write(`${JSON.stringify(totals)}\n`);
mailer.close();
await database.close();
