/**
 * One integration-test environment per suite and dialect: a fresh database, the real app (through
 * app.inject), a clock the test can move, and a real SMTP server catching mail.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { api, type CallName, type RequestOf } from '../../common/api/index.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../../common/constants.ts';
import { buildApp } from '../app.ts';
import { FakeClock } from '../clock.ts';
import { loadConfig, type Config, type Database } from '../config.ts';
import type { Services } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { DialectName } from '../db/dialect.ts';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from './databases.ts';
import { startSmtpCapture, type SmtpCapture } from './smtp.ts';

export interface TestEnv {
  dialect: DialectName;
  app: FastifyInstance;
  services: Services;
  db: Db;
  clock: FakeClock;
  smtp: SmtpCapture;
  config: Config;
  /** Where the suite's database is (another connection to it: an export worker's). */
  location: Database;
}

export interface CallOptions {
  /** A Cookie header (from signIn), or none for a caller without a session. */
  cookie?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** An upload call's body (default: a small real JPEG) and its declared type (default image/jpeg). */
  upload?: { body: Buffer; contentType?: string };
  /** The client's address as the server sees it (default: inject's 127.0.0.1). */
  remoteAddress?: string;
}

/** A real JPEG (640×480, with a GPS location in its EXIF): what an upload call sends unless told otherwise. */
export const SAMPLE_PHOTO = readFileSync(
  fileURLToPath(new URL('../modules/evidence/fixtures/photo.jpg', import.meta.url)),
);

/** A real PNG signature (600×200, a drawn line on a transparent background): a signature upload's default. */
export const SAMPLE_SIGNATURE = readFileSync(
  fileURLToPath(new URL('../modules/reports/fixtures/signature.png', import.meta.url)),
);

/**
 * An answer as the test reads it. Its body is untyped on purpose: tests send refused and malformed
 * requests too, and assert the shape of what comes back rather than trust a type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export interface CallAnswer<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  cookies: { name: string; value: string; expires?: Date; httpOnly?: boolean }[];
}

/** Makes a call of the contract the way the web client does (JSON, same-origin). */
export async function call<N extends CallName>(
  env: Pick<TestEnv, 'app'>,
  name: N,
  body: RequestOf<(typeof api)[N]> | Record<string, unknown>,
  options: CallOptions = {},
): Promise<CallAnswer> {
  const def = api[name];
  const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] = options.idempotencyKey;
  let request: { query?: Record<string, string>; payload?: object | Buffer };
  if ('upload' in def && def.upload) {
    // The fields in the query string, the photo as the body (issue 12).
    const signature = def.upload === 'signature';
    headers['content-type'] = options.upload?.contentType ?? (signature ? 'image/png' : 'image/jpeg');
    const sample = signature ? SAMPLE_SIGNATURE : SAMPLE_PHOTO;
    request = { query: asQuery(body), payload: options.upload?.body ?? sample };
  } else if (def.method === 'GET') request = { query: asQuery(body) };
  else request = { payload: body as object };
  const response = await env.app.inject({
    method: def.method,
    url: def.path,
    headers,
    ...request,
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  const type = String(response.headers['content-type'] ?? '');
  return {
    status: response.statusCode,
    body: type.includes('application/json') ? response.json() : response.rawPayload,
    headers: response.headers,
    cookies: response.cookies as CallAnswer['cookies'],
  };
}

function asQuery(body: object): Record<string, string> {
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ NODE_ENV: 'test', APP_URL: 'http://checkboard.test', LOG_LEVEL: 'silent' }),
    // Each suite's photos in a folder of its own, never under the project's data/.
    storage: { kind: 'folder', dir: path.join(os.tmpdir(), 'checkboard-test-uploads', randomUUID()) },
    ...overrides,
  };
}

/**
 * Declares a suite once per dialect. The environment is created before the suite's tests and torn down
 * after; read its fields inside tests (they are set by then).
 */
export function describeEachDatabase(
  title: string,
  define: (env: TestEnv) => void,
  options: {
    config?: () => Partial<Config>;
    onQuery?: (sql: string, dialect: DialectName) => void;
    /** The server's export workers (decision 0750), on a SQLite file rather than in memory. */
    exportWorkers?: boolean;
  } = {},
) {
  for (const dialect of TEST_DIALECTS) {
    describe(`${title} [${dialect}]`, () => {
      const env = { dialect } as TestEnv;
      let testDatabase: TestDatabase;
      beforeAll(async () => {
        const onQuery = options.onQuery;
        testDatabase = await createTestDatabase(dialect, {
          onQuery: onQuery && ((text) => onQuery(text, dialect)),
          sqliteFile: options.exportWorkers === true,
        });
        env.smtp = await startSmtpCapture();
        env.clock = new FakeClock();
        env.config = testConfig({
          smtpUrl: env.smtp.url,
          sessionSecret: `test-secret-${randomUUID()}`,
          ...options.config?.(),
        });
        const built = await buildApp({
          config: env.config,
          database: testDatabase.database,
          clock: env.clock,
          logger: false,
          webDir: '/nonexistent',
          exportWorkers: options.exportWorkers === true,
        });
        env.app = built.app;
        env.services = built.services;
        env.db = built.services.db;
        env.location = testDatabase.database.location;
        await env.app.ready();
      });
      afterAll(async () => {
        await env.app?.close();
        env.services?.mailer.close();
        await env.smtp?.close();
        await testDatabase?.drop();
        // The suite's own photos folder (testConfig); their shared parent stays, as parallel files use it.
        if (env.config?.storage.kind === 'folder')
          await rm(env.config.storage.dir, { recursive: true, force: true });
      });
      define(env);
    });
  }
}
