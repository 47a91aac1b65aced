/**
 * Issue 10, defect 9: without SMTP_URL in production, password-reset, verification and invitation links
 * never reach the log (the log says mail is not configured), and secrets in page URLs (anonymous keys,
 * reset and verification tokens) are redacted from logged request URLs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { FakeClock } from '../clock.ts';
import type { Database } from '../db/index.ts';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { buildOrg, buildUser, signIn } from '../test/factories.ts';
import { call, testConfig } from '../test/harness.ts';

describe('secrets never reach the log (production, no SMTP_URL) [sqlite]', () => {
  let created: TestDatabase;
  let database: Database;
  let app: App;
  let outbox: string;
  const lines: string[] = [];
  const clock = new FakeClock();
  const logText = () => lines.join('');

  beforeAll(async () => {
    created = await createTestDatabase('sqlite');
    database = created.database;
    outbox = mkdtempSync(path.join(os.tmpdir(), 'cb-outbox-'));
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({
      config: testConfig({
        env: 'production',
        smtpUrl: undefined,
        outboxDir: outbox,
        logLevel: 'info',
        sessionSecret: 'log-test-secret-0123456789abcdef0123',
      }),
      database,
      clock,
      logger: { level: 'info', stream },
      webDir: '/nonexistent',
    });
  });
  afterAll(async () => {
    await app?.app.close();
    await created?.drop();
    rmSync(outbox, { recursive: true, force: true });
  });

  it('logs that mail is not configured, never the reset, verification or invitation link', async () => {
    const org = await buildOrg({ db: database.db, clock });
    const owner = await buildUser({ db: database.db, clock }, org);
    const cookie = await signIn({ db: database.db, clock }, owner);
    expect((await call(app, 'requestPasswordReset', { username: owner.email })).status).toBe(200);
    const invited = `invitee${org.id}@example.com`;
    const added = await call(
      app,
      'addUser',
      { email: invited, isViewOnly: true, isEvaluator: false, isAdmin: false, isOwner: false },
      { cookie },
    );
    expect(added.status).toBe(200);
    const signedUp = await call(app, 'signup', {
      orgname: `Logged Works ${org.id}`,
      email: `founder${org.id}@example.com`,
      password: 'a good password',
    });
    expect(signedUp.status).toBe(200);

    // The links went to the outbox (readable by the operator only), so a fresh install still works…
    const files = readdirSync(outbox).map((f) => path.join(outbox, f));
    const mails = files.map((f) => readFileSync(f, 'utf8'));
    const links = mails.flatMap((m) => m.match(/https?:\/\/\S+/g) ?? []);
    expect(links.some((l) => l.includes('/reset-password/'))).toBe(true);
    expect(links.some((l) => l.includes('/verify?token='))).toBe(true);
    expect(links.filter((l) => l.includes('/reset-password/'))).toHaveLength(2);
    for (const f of files) expect(statSync(f).mode & 0o077).toBe(0);

    // …but the log holds none of them, nor their tokens, and says why.
    const log = logText();
    for (const link of links) {
      expect(log).not.toContain(link);
      const token = link.includes('?token=')
        ? new URL(link).searchParams.get('token')!
        : decodeURIComponent(link.split('/').pop()!);
      expect(log).not.toContain(token);
    }
    expect(log).toContain('mail is not configured');
  });

  it('redacts anonymous keys and one-time tokens from logged request URLs', async () => {
    const secrets = {
      key: 'AnonKeySecretAAAAAAAAAAAAAAAAAAA',
      evalKey: 'AnonKeySecretBBBBBBBBBBBBBBBBBBB',
      reset: 'ResetTokenSecretCCCCCCCCCCCCCCCC',
      orgReset: 'ResetTokenSecretDDDDDDDDDDDDDDDD',
      verify: 'VerifyTokenSecretEEEEEEEEEEEEEEE',
      ssoCode: 'SsoCodeSecretFFFFFFFFFFFFFFFFFFF',
      ssoState: 'SsoStateSecretGGGGGGGGGGGGGGGGGG',
    };
    const urls = [
      `/q/Some%20Org/boards/Line%201/12/eval/${secrets.key}`,
      `/q/Some%20Org/boards/Line%201/12/eval/Card%20A/7/99/${secrets.evalKey}`,
      `/reset-password/${secrets.reset}`,
      `/q/Some%20Org/reset-password/${secrets.orgReset}?x=1`,
      `/verify?token=${secrets.verify}`,
      `/api/sso/callback?code=${secrets.ssoCode}&state=${secrets.ssoState}&iss=https%3A%2F%2Fidp`,
    ];
    for (const url of urls) await app.app.inject({ method: 'GET', url });
    const log = logText();
    for (const secret of Object.values(secrets)) expect(log).not.toContain(secret);
    // The rest of the URL is still logged, so requests can be traced.
    expect(log).toContain('/q/Some%20Org/boards/Line%201/12/eval/[redacted]');
    expect(log).toContain('/q/Some%20Org/boards/Line%201/12/eval/Card%20A/7/99/[redacted]');
    expect(log).toContain('/verify?token=[redacted]');
    expect(log).toContain('/q/Some%20Org/reset-password/[redacted]?x=1');
    expect(log).toContain('/api/sso/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp');
    // A signed-in evaluation's path has no key and is logged whole.
    await app.app.inject({ method: 'GET', url: '/q/Some%20Org/boards/Line%201/12/eval/Card%20A/7/99' });
    expect(logText()).toContain('/q/Some%20Org/boards/Line%201/12/eval/Card%20A/7/99"');
  });
});
