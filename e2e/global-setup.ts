/**
 * Starts what the journeys need, as a user's install would run: a real SMTP server catching mail into a
 * folder, and the built server (dist/) on a fresh SQLite database. Returns the teardown.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSmtpCapture } from '../server/test/smtp.ts';

export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT ?? 4310);
  const dir = mkdtempSync(path.join(tmpdir(), 'checkboard-e2e-'));
  const mailDir = path.join(dir, 'mail');
  const smtp = await startSmtpCapture({ saveTo: mailDir });
  const databaseFile = path.join(dir, 'e2e.sqlite');

  const server = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${databaseFile}`,
      // Photos (issue 12) beside the journey's database, never under the project's data/.
      STORAGE_URL: `file:${path.join(dir, 'uploads')}`,
      APP_URL: `http://localhost:${port}`,
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e-secret',
      // Every journey's visitor calls from 127.0.0.1: the anonymous journeys alone come near the
      // production limit of 120 -anon calls a minute per address. The limit has its own server tests.
      ANON_CALLS_PER_MINUTE: '2000',
      // Likewise every journey signs up from 127.0.0.1 (limit: server/hardening/signup-limit.test.ts).
      SIGNUPS_PER_ADDRESS_PER_HOUR: '1000',
      // The webhook journey's receiver listens on 127.0.0.1, which production refuses (decision 0585).
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      // The single sign-on journey's test provider is a plain http:// issuer on 127.0.0.1 (decision 0720).
      SSO_ALLOW_INSECURE: 'true',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));

  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const response = await fetch(`http://localhost:${port}/version.txt`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (server.exitCode !== null)
      throw new Error(`the server exited with ${server.exitCode} before it was ready`);
    if (Date.now() > deadline) throw new Error('the server did not start within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  process.env.E2E_DATABASE_FILE = databaseFile;
  process.env.E2E_MAIL_DIR = mailDir;
  writeFileSync(path.join(dir, 'ready'), 'ok');

  return async () => {
    server.kill('SIGTERM');
    await exited;
    await smtp.close();
    // The journeys' database, mail and photos: what a failed journey shows is in test-results/, not here.
    rmSync(dir, { recursive: true, force: true });
  };
}
