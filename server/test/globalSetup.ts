/**
 * Vitest's global setup: with TEST_DATABASE_URL, one PostgreSQL database migrated once for the whole run, which
 * every suite's database is then copied from (`create database … template`, about a third of the time of
 * creating and migrating one: docs/decisions/0748). Dropped when the run ends, whatever happened.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { adminQuery } from './databases.ts';

export default async function setup(project: TestProject) {
  if (!process.env.TEST_DATABASE_URL) {
    project.provide('postgresTemplate', '');
    return;
  }
  const name = `checkboard_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const drop = () => adminQuery(`drop database if exists ${name} with (force)`);
  const database = openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 1 });
  try {
    await migrateToLatest(database.db, 'postgres');
  } catch (error) {
    await database.close();
    await drop(); // a failed migration leaves nothing behind
    throw error;
  }
  // A template must have no connection while it is copied.
  await database.close();
  project.provide('postgresTemplate', name);
  return drop;
}
