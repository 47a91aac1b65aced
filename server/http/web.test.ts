import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DEV_BUILD_ID, registerWeb } from './web.ts';

function builtApp() {
  const dir = mkdtempSync(path.join(tmpdir(), 'checkboard-web-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Checkboard</title>');
  writeFileSync(path.join(dir, 'version.txt'), 'build-42\n');
  return dir;
}

describe('serving the web app', () => {
  it("answers /version.txt with the build's id, and every page path with index.html", async () => {
    const app = Fastify();
    await registerWeb(app, builtApp());
    expect((await app.inject('/version.txt')).body).toBe('build-42');
    const page = await app.inject('/q/Acme%20Ltd/home');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect((await app.inject('/')).body).toContain('<title>Checkboard</title>');
    expect((await app.inject('/assets/missing.js')).statusCode).toBe(404);
    await app.close();
  });

  it('answers the development id when Vite serves the app, even with a stale build on disk', async () => {
    const app = Fastify();
    await registerWeb(app, null);
    expect((await app.inject('/version.txt')).body).toBe(DEV_BUILD_ID);
    await app.close();
  });
});
