import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDatabaseUrl, redactUrl } from './config.ts';
import { projectRoot } from './paths.ts';

describe('configuration', () => {
  it('needs nothing to run: SQLite under data/, port 3000, local billing', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: path.join(projectRoot, 'data', 'checkboard.sqlite'),
    });
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.billing).toEqual({ provider: 'local' });
    expect(config.smtpUrl).toBeUndefined();
    expect(config.anonKeyRotationMinutes).toBe(60);
  });

  it('selects PostgreSQL with DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/cb' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/cb',
    });
    expect(parseDatabaseUrl('postgresql://db/cb').kind).toBe('postgres');
  });

  it('takes sqlite: paths, relative to the project or absolute', () => {
    expect(parseDatabaseUrl('sqlite:/tmp/x.db')).toEqual({ kind: 'sqlite', file: '/tmp/x.db' });
    expect(parseDatabaseUrl('sqlite:data/other.db')).toEqual({
      kind: 'sqlite',
      file: path.join(projectRoot, 'data/other.db'),
    });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', file: ':memory:' });
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a port number (got "abc").'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be between 1 and 65535 (got "70000").'],
    [
      { DATABASE_URL: 'mysql://x' },
      'Invalid configuration: DATABASE_URL must be a postgres://… URL, or sqlite:<path> for an embedded database (got "mysql://x").',
    ],
    [
      { APP_URL: 'localhost:3000' },
      'Invalid configuration: APP_URL must be an http:// or https:// URL (got "localhost:3000").',
    ],
    [
      { SMTP_URL: 'mail.example.com' },
      'Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL (got "mail.example.com").',
    ],
    [
      { BILLING_PROVIDER: 'paypal' },
      'Invalid configuration: BILLING_PROVIDER must be local or stripe (got "paypal").',
    ],
    [
      { SESSION_SECRET: 'short' },
      'Invalid configuration: SESSION_SECRET must be at least 32 characters long (got "short").',
    ],
    [
      { BILLING_PROVIDER: 'stripe' },
      'Invalid configuration: STRIPE_SECRET_KEY is required when BILLING_PROVIDER is stripe.',
    ],
  ])('refuses %o with one line naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });

  it('allows plain http:// single sign-on issuers only outside production, unless SSO_ALLOW_INSECURE says', () => {
    expect(loadConfig({}).ssoAllowInsecure).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).ssoAllowInsecure).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).ssoAllowInsecure).toBe(true);
    expect(loadConfig({ SSO_ALLOW_INSECURE: 'true' }).ssoAllowInsecure).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', SSO_ALLOW_INSECURE: 'false' }).ssoAllowInsecure).toBe(false);
    expect(() => loadConfig({ SSO_ALLOW_INSECURE: 'yes' })).toThrow(
      new ConfigError('Invalid configuration: SSO_ALLOW_INSECURE must be true or false (got "yes").'),
    );
  });

  it('sends PostgreSQL statements named unless PG_NAMED_STATEMENTS=false (decision 0754)', () => {
    const url = 'postgres://db.example/checkboard';
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'postgres', url });
    expect(loadConfig({ DATABASE_URL: url, PG_NAMED_STATEMENTS: 'false' }).database).toEqual({
      kind: 'postgres',
      url,
      namedStatements: false,
    });
    expect(loadConfig({ PG_NAMED_STATEMENTS: 'false' }).database.kind).toBe('sqlite');
    expect(() => loadConfig({ PG_NAMED_STATEMENTS: 'no' })).toThrow(
      new ConfigError('Invalid configuration: PG_NAMED_STATEMENTS must be true or false (got "no").'),
    );
  });

  it('turns PostgreSQL’s JIT off on the app’s connections unless PG_JIT=true (decision 0758)', () => {
    const url = 'postgres://db.example/checkboard';
    expect(loadConfig({ DATABASE_URL: url, PG_JIT: 'true' }).database).toEqual({
      kind: 'postgres',
      url,
      jit: true,
    });
    expect(loadConfig({ DATABASE_URL: url, PG_JIT: 'false' }).database).toEqual({ kind: 'postgres', url });
    expect(loadConfig({ DATABASE_URL: url, PG_JIT: 'true', PG_NAMED_STATEMENTS: 'false' }).database).toEqual({
      kind: 'postgres',
      url,
      namedStatements: false,
      jit: true,
    });
    expect(loadConfig({ PG_JIT: 'true' }).database.kind).toBe('sqlite');
    expect(() => loadConfig({ PG_JIT: 'yes' })).toThrow(
      new ConfigError('Invalid configuration: PG_JIT must be true or false (got "yes").'),
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });

  it('drops a trailing slash from APP_URL', () => {
    expect(loadConfig({ APP_URL: 'https://checkboard.example.com/' }).appUrl).toBe(
      'https://checkboard.example.com',
    );
  });

  it('never prints a database password', () => {
    expect(redactUrl('postgres://user:secret@db:5432/cb')).toBe('postgres://user:***@db:5432/cb');
  });
});
