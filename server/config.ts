/**
 * Configuration from environment variables, validated once at boot. A bad value stops the start with one
 * line naming the setting (main.ts prints it); nothing else reads process.env.
 */
import path from 'node:path';
import { z } from 'zod';
import { ANONYMOUS_KEY_ROTATION_MINUTES_DEFAULT } from '../common/constants.ts';
import {
  ANONYMOUS_CALLS_PER_MINUTE,
  REPORTS_PER_MINUTE_PER_ADDRESS,
  REPORTS_PER_MINUTE_PER_MEMBER,
  REPORTS_PER_MINUTE_PER_ORG,
} from './http/rateLimit.ts';
import { projectRoot } from './paths.ts';
import { parseStorageUrl, type StorageConfig } from './storage/storage.ts';

export const SIGNUPS_PER_ADDRESS_PER_HOUR_DEFAULT = 10;
export const JOBS_POLL_SECONDS_DEFAULT = 30;

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());

function url(protocols: string[], what: string) {
  return z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be ${what}`);
}

const schema = z.object({
  NODE_ENV: z.preprocess(
    emptyAsUndefined,
    z.enum(['development', 'production', 'test']).default('production'),
  ),
  PORT: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a port number' })
      .int('must be a whole number')
      .min(1, 'must be between 1 and 65535')
      .max(65535, 'must be between 1 and 65535')
      .default(3000),
  ),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    url(
      ['postgres:', 'postgresql:', 'sqlite:', 'file:'],
      'a postgres://… URL, or sqlite:<path> for an embedded database',
    ).optional(),
  ),
  PG_NAMED_STATEMENTS: z.preprocess(
    emptyAsUndefined,
    z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'),
  ),
  PG_JIT: z.preprocess(
    emptyAsUndefined,
    z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  ),
  APP_URL: z.preprocess(emptyAsUndefined, url(['http:', 'https:'], 'an http:// or https:// URL').optional()),
  SMTP_URL: z.preprocess(emptyAsUndefined, url(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL').optional()),
  MAIL_FROM: z.preprocess(
    emptyAsUndefined,
    z.string().min(3).default('Checkboard <no-reply@checkboard.local>'),
  ),
  OUTBOX_DIR: optionalString,
  BILLING_PROVIDER: z.preprocess(
    emptyAsUndefined,
    z.enum(['local', 'stripe'], { error: 'must be local or stripe' }).default('local'),
  ),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_ID: optionalString,
  STRIPE_API_URL: z.preprocess(
    emptyAsUndefined,
    url(['http:', 'https:'], 'an http:// or https:// URL').default('https://api.stripe.com'),
  ),
  SESSION_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, 'must be at least 32 characters long').optional(),
  ),
  ANON_KEY_ROTATION_MINUTES: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number of minutes' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1')
      .max(1440, 'must be at most 1440')
      .default(ANONYMOUS_KEY_ROTATION_MINUTES_DEFAULT),
  ),
  ANON_CALLS_PER_MINUTE: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(ANONYMOUS_CALLS_PER_MINUTE),
  ),
  REPORTS_PER_MINUTE_PER_MEMBER: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(REPORTS_PER_MINUTE_PER_MEMBER),
  ),
  REPORTS_PER_MINUTE_PER_ORG: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(REPORTS_PER_MINUTE_PER_ORG),
  ),
  REPORTS_PER_MINUTE_PER_ADDRESS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(REPORTS_PER_MINUTE_PER_ADDRESS),
  ),
  SIGNUPS_PER_ADDRESS_PER_HOUR: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(SIGNUPS_PER_ADDRESS_PER_HOUR_DEFAULT),
  ),
  METRICS_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().min(16, 'must be at least 16 characters long').optional(),
  ),
  JOBS_POLL_SECONDS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(1, 'must be at least 1')
      .max(3600, 'must be at most 3600')
      .default(JOBS_POLL_SECONDS_DEFAULT),
  ),
  EXPORTS_PER_PROCESS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(64, 'must be at most 64')
      .default(2),
  ),
  TRUST_PROXY: z.preprocess(
    emptyAsUndefined,
    z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  ),
  STORAGE_URL: z.preprocess(
    emptyAsUndefined,
    url(['s3:', 'file:'], 'an s3://KEY:SECRET@bucket?endpoint=… URL, or file:<folder>').optional(),
  ),
  WEBHOOKS_ALLOW_PRIVATE: z.preprocess(
    emptyAsUndefined,
    z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  ),
  SSO_ALLOW_INSECURE: z.preprocess(
    emptyAsUndefined,
    z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  ),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

export type Database =
  | { kind: 'sqlite'; file: string }
  /**
   * namedStatements: send statements as named prepared statements (decision 0754; PG_NAMED_STATEMENTS).
   * jit: leave PostgreSQL's JIT compilation as the server sets it; otherwise off on the app's connections
   * (decision 0758; PG_JIT).
   */
  | { kind: 'postgres'; url: string; namedStatements?: boolean; jit?: boolean };

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  database: Database;
  appUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  outboxDir: string;
  billing:
    | { provider: 'local' }
    | { provider: 'stripe'; secretKey: string; webhookSecret: string; priceId: string; apiUrl: string };
  sessionSecret: string | undefined;
  anonKeyRotationMinutes: number;
  /** Requests per minute per address to the -anon calls. */
  anonymousCallsPerMinute: number;
  /** PDF reports made per minute per member, per organisation, per client address (decision 0715). */
  reportsPerMinute: { member: number; org: number; address: number };
  /** Sign-ups per hour from one client address (each mails an address). */
  signupsPerAddressPerHour: number;
  /** The Bearer token GET /metrics asks for; without it there is no /metrics. */
  metricsToken: string | undefined;
  /** How often each process asks the database for due periodic jobs (server/jobs/runner.ts). */
  jobsPollSeconds: number;
  /** Excel exports running at once in this process (one per organisation across processes). */
  exportsPerProcess: number;
  trustProxy: boolean;
  /**
   * Whether webhooks may go to private, loopback and link-local addresses, and over plain http (decision
   * 0585): never in production unless set, always in development and tests.
   */
  webhooksAllowPrivate: boolean;
  /**
   * Whether an organisation's single sign-on issuer may be a plain http:// URL (decision 0720): never in
   * production unless SSO_ALLOW_INSECURE=true, always in development and tests (a local test provider).
   */
  ssoAllowInsecure: boolean;
  logLevel: string;
  /** Where photos go (issue 12): a folder under data/ unless STORAGE_URL says otherwise. */
  storage: StorageConfig;
}

export class ConfigError extends Error {}

function withPostgresSettings(database: Database, named: boolean, jit: boolean): Database {
  if (database.kind !== 'postgres') return database;
  return { ...database, ...(named ? {} : { namedStatements: false }), ...(jit ? { jit: true } : {}) };
}

export function parseDatabaseUrl(value: string | undefined): Database {
  if (!value) return { kind: 'sqlite', file: path.join(projectRoot, 'data', 'checkboard.sqlite') };
  const parsed = new URL(value);
  if (parsed.protocol === 'postgres:' || parsed.protocol === 'postgresql:')
    return { kind: 'postgres', url: value };
  // sqlite:relative/path, sqlite:/absolute/path, sqlite::memory:, file:…
  const file = decodeURIComponent(value.slice(parsed.protocol.length).replace(/^\/\/(?=\/)/, ''));
  return {
    kind: 'sqlite',
    file: file === ':memory:' || path.isAbsolute(file) ? file : path.join(projectRoot, file),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0]);
    const got = env[name];
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue.message}${got === undefined ? '' : ` (got "${name === 'STORAGE_URL' ? redactUrl(got) : got}")`}.`,
    );
  }
  const e = result.data;
  let storage: StorageConfig;
  try {
    storage = parseStorageUrl(e.STORAGE_URL, path.join(projectRoot, 'data', 'uploads'), projectRoot);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: STORAGE_URL ${(error as Error).message} (got "${redactUrl(e.STORAGE_URL ?? '')}").`,
    );
  }
  let billing: Config['billing'] = { provider: 'local' };
  if (e.BILLING_PROVIDER === 'stripe') {
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID'] as const) {
      if (!e[name])
        throw new ConfigError(`Invalid configuration: ${name} is required when BILLING_PROVIDER is stripe.`);
    }
    billing = {
      provider: 'stripe',
      secretKey: e.STRIPE_SECRET_KEY!,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
      priceId: e.STRIPE_PRICE_ID!,
      apiUrl: e.STRIPE_API_URL.replace(/\/+$/, ''),
    };
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    database: withPostgresSettings(
      parseDatabaseUrl(e.DATABASE_URL),
      e.PG_NAMED_STATEMENTS === 'true',
      e.PG_JIT === 'true',
    ),
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    outboxDir: e.OUTBOX_DIR
      ? path.resolve(projectRoot, e.OUTBOX_DIR)
      : path.join(projectRoot, 'data', 'outbox'),
    billing,
    sessionSecret: e.SESSION_SECRET,
    anonKeyRotationMinutes: e.ANON_KEY_ROTATION_MINUTES,
    anonymousCallsPerMinute: e.ANON_CALLS_PER_MINUTE,
    reportsPerMinute: {
      member: e.REPORTS_PER_MINUTE_PER_MEMBER,
      org: e.REPORTS_PER_MINUTE_PER_ORG,
      address: e.REPORTS_PER_MINUTE_PER_ADDRESS,
    },
    signupsPerAddressPerHour: e.SIGNUPS_PER_ADDRESS_PER_HOUR,
    metricsToken: e.METRICS_TOKEN,
    jobsPollSeconds: e.JOBS_POLL_SECONDS,
    exportsPerProcess: e.EXPORTS_PER_PROCESS,
    trustProxy: e.TRUST_PROXY === 'true',
    webhooksAllowPrivate:
      e.WEBHOOKS_ALLOW_PRIVATE === undefined
        ? e.NODE_ENV !== 'production'
        : e.WEBHOOKS_ALLOW_PRIVATE === 'true',
    ssoAllowInsecure:
      e.SSO_ALLOW_INSECURE === undefined ? e.NODE_ENV !== 'production' : e.SSO_ALLOW_INSECURE === 'true',
    logLevel: e.LOG_LEVEL,
    storage,
  };
}

/** A database URL safe to print: the password is replaced. */
export function redactUrl(value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return value;
  }
}
