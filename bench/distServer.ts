/**
 * The built app (`npm run build` first) served as `npm start` serves it, on a random port of 127.0.0.1,
 * for the benches that drive it from Chromium (analytics-page.ts, page-weight.ts, lighthouse.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export async function startDistServer(
  databaseUrl: string,
  /** A fixed port (a bench given one to stay clear of other runs); a random one of 20,000-39,999 without. */
  fixedPort?: number,
): Promise<{ port: number; child: ChildProcess }> {
  if (
    !existsSync(path.join(root, 'dist/server/main.js')) ||
    !existsSync(path.join(root, 'dist/web/index.html'))
  )
    throw new Error('run `npm run build` first: the benchmark serves dist/');
  const port = fixedPort ?? 20_000 + Math.floor(Math.random() * 20_000);
  // A fixed port already taken would let the readiness check below read another server's answer.
  if (fixedPort !== undefined) await assertFree(fixedPort);
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      APP_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-bench',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`http://localhost:${port}/version.txt`)).ok) return { port, child };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('the server did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function assertFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`port ${port} is in use`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}
