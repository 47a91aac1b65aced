import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DEV_BUILD_ID, registerWeb } from './web.ts';

function builtApp() {
  const dir = mkdtempSync(path.join(tmpdir(), 'checkboard-web-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
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

  it('sends each asset precompressed as Accept-Encoding allows, hashed ones immutable, index.html revalidated, no maps', async () => {
    const dir = builtApp();
    mkdirSync(path.join(dir, 'assets'));
    const script = `export const answer = ${JSON.stringify('forty-two '.repeat(500))};\n`;
    const html = `<!doctype html><title>Checkboard</title>${'<!-- padding -->'.repeat(100)}`;
    const files: Record<string, string> = {
      'assets/index-AbC123.js': script,
      'index.html': html,
      'theme-init.js': script,
    };
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(path.join(dir, name), text);
      writeFileSync(path.join(dir, `${name}.br`), brotliCompressSync(text));
      writeFileSync(path.join(dir, `${name}.gz`), gzipSync(text));
    }
    writeFileSync(path.join(dir, 'assets/index-AbC123.js.map'), '{"version":3,"sources":["secret.ts"]}');
    const app = Fastify();
    await registerWeb(app, dir);
    const get = (url: string, acceptEncoding?: string) =>
      app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
    const varies = (headers: Record<string, unknown>) =>
      String(headers.vary ?? '')
        .toLowerCase()
        .split(/,\s*/)
        .includes('accept-encoding');

    const asset = '/assets/index-AbC123.js';
    const br = await get(asset, 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(br.headers)).toBe(true);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);

    const gz = await get(asset, 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(varies(gz.headers)).toBe(true);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get(asset);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain.headers)).toBe(true);
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    // Files outside assets/ have no hash in their name: revalidated, compressed all the same.
    const unhashed = await get('/theme-init.js', 'br');
    expect(unhashed.headers['content-encoding']).toBe('br');
    expect(unhashed.headers['cache-control']).toBe('no-cache');

    for (const pagePath of ['/', '/q/Acme%20Ltd/home']) {
      const page = await get(pagePath, 'br, gzip');
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['content-encoding']).toBe('br');
      expect(varies(page.headers)).toBe(true);
      expect(brotliDecompressSync(page.rawPayload).toString()).toBe(html);
    }

    // Source maps are not served, even when one is left in the folder.
    expect((await get(`${asset}.map`)).statusCode).toBe(404);
    expect((await get(`${asset}.map`, 'br')).statusCode).toBe(404);
    await app.close();
  });
});
