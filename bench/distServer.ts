/**
 * The built app (`npm run build` first) served as `npm start` serves it, on a random port of 127.0.0.1,
 * for the benches that drive it from Chromium (analytics-page.ts, page-weight.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export async function startDistServer(databaseUrl: string): Promise<{ port: number; child: ChildProcess }> {
  if (
    !existsSync(path.join(root, 'dist/server/main.js')) ||
    !existsSync(path.join(root, 'dist/web/index.html'))
  )
    throw new Error('run `npm run build` first: the benchmark serves dist/');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
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
