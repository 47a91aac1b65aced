/**
 * API answers of JSON compressed as the client accepts (decision 0777): the negotiation, what is left alone,
 * both sizes' paths (in the request, and on zlib's thread pool), and the app's own answers through it.
 */
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCards, buildTeam } from '../test/factories.ts';
import { call, describeEachDatabase } from '../test/harness.ts';
import { compressOnce, keptCompressions } from '../lib/compressedOnce.ts';
import { chooseEncoding, COMPRESS_MIN_BYTES, registerCompression } from './compression.ts';

const decode = (encoding: unknown, body: Buffer) =>
  encoding === 'br'
    ? zlib.brotliDecompressSync(body).toString()
    : encoding === 'gzip'
      ? zlib.gunzipSync(body).toString()
      : body.toString();

describe('chooseEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['BR;Q=0.1', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['deflate', null],
  ])('%j gives %j', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe('registerCompression', () => {
  let app: FastifyInstance;
  const big = {
    items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Item ${i}`, pass: i % 3 > 0 })),
  };
  const huge = {
    items: Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `Item ${i}`, pass: i % 3 > 0 })),
  };
  // Bytes sent again as they are (decision 0785), in both sizes' paths; and the same bytes unmarked.
  const marked = compressOnce(Buffer.from(JSON.stringify(huge)));
  const smallMarked = compressOnce(Buffer.from(JSON.stringify(big)));
  const unmarked = Buffer.from(JSON.stringify(big));
  beforeAll(async () => {
    app = Fastify();
    registerCompression(app);
    app.post('/api/big', async () => big);
    app.post('/api/huge', async (_request, reply) =>
      reply.type('application/json').send(JSON.stringify(huge)),
    );
    app.post('/api/small', async () => ({ ok: true }));
    app.post('/api/marked', async (_request, reply) => reply.type('application/json').send(marked));
    app.post('/api/small-marked', async (_request, reply) =>
      reply.type('application/json').send(smallMarked),
    );
    app.post('/api/unmarked', async (_request, reply) => reply.type('application/json').send(unmarked));
    app.post('/api/text', async (_request, reply) => reply.type('text/plain').send('x'.repeat(5000)));
    app.post('/api/vary', async (_request, reply) => reply.header('Vary', 'Origin').send(big));
    app.get('/api/big', async () => big);
    app.get('/page', async (_request, reply) => reply.type('application/json').send(JSON.stringify(big)));
    await app.ready();
  });
  afterAll(() => app.close());

  const ask = (url: string, headers: Record<string, string>, method: 'GET' | 'POST' | 'HEAD' = 'POST') =>
    app.inject({ method, url, headers });

  it('answers brotli or gzip as accepted, the same JSON, with Vary: Accept-Encoding', async () => {
    expect(JSON.stringify(big).length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    for (const [accepted, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const answer = await ask('/api/big', { 'accept-encoding': accepted });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
      expect(answer.rawPayload.length).toBeLessThan(JSON.stringify(big).length / 3);
      expect(JSON.parse(decode(encoding, answer.rawPayload))).toEqual(big);
    }
  });

  it('compresses an answer of 64 KB or more off the request, as well', async () => {
    expect(JSON.stringify(huge).length).toBeGreaterThan(64 * 1024);
    for (const encoding of ['br', 'gzip'] as const) {
      const answer = await ask('/api/huge', { 'accept-encoding': encoding });
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decode(encoding, answer.rawPayload))).toEqual(huge);
    }
  });

  it('leaves alone a client that accepts none, a small answer, text, HEAD and paths outside the API', async () => {
    const plain = await ask('/api/big', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.json()).toEqual(big);
    expect(
      (await ask('/api/big', { 'accept-encoding': 'identity' })).headers['content-encoding'],
    ).toBeUndefined();
    const small = await ask('/api/small', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
    const text = await ask('/api/text', { 'accept-encoding': 'br' });
    expect(text.headers['content-encoding']).toBeUndefined();
    expect(text.body).toBe('x'.repeat(5000));
    const head = await ask('/api/big', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(
      (await ask('/page', { 'accept-encoding': 'br' }, 'GET')).headers['content-encoding'],
    ).toBeUndefined();
  });

  it('compresses only for a same-origin request or a client that is not a browser', async () => {
    for (const site of ['same-origin', 'none']) {
      const answer = await ask('/api/big', { 'accept-encoding': 'br', 'sec-fetch-site': site }, 'GET');
      expect(answer.headers['content-encoding']).toBe('br');
    }
    for (const site of ['cross-site', 'same-site']) {
      const answer = await ask('/api/big', { 'accept-encoding': 'br', 'sec-fetch-site': site }, 'GET');
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.json()).toEqual(big);
    }
  });

  it('adds Accept-Encoding to a Vary already set', async () => {
    const answer = await ask('/api/vary', { 'accept-encoding': 'br' });
    expect(answer.headers.vary).toBe('Origin, Accept-Encoding');
    expect(answer.headers['content-encoding']).toBe('br');
  });

  it('compresses bytes marked as sent again once per encoding, and keeps nothing for others', async () => {
    for (const encoding of ['br', 'gzip'] as const) {
      const first = await ask('/api/marked', { 'accept-encoding': encoding });
      expect(first.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decode(encoding, first.rawPayload))).toEqual(huge);
      const kept = keptCompressions(marked)?.get(encoding);
      expect(kept?.equals(first.rawPayload)).toBe(true);
      // The next answer is the kept compression itself: replaced by another, that one is sent.
      const other = encoding === 'br' ? zlib.brotliCompressSync('{"other":1}') : zlib.gzipSync('{"other":1}');
      keptCompressions(marked)!.set(encoding, other);
      const second = await ask('/api/marked', { 'accept-encoding': encoding });
      expect(second.rawPayload.equals(other)).toBe(true);
    }
    const plain = await ask('/api/marked', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(marked)).toBe(true);

    // Under 64 KB, compressed in the request: kept as well.
    const small = await ask('/api/small-marked', { 'accept-encoding': 'gzip' });
    expect(JSON.parse(decode('gzip', small.rawPayload))).toEqual(big);
    expect(keptCompressions(smallMarked)?.get('gzip')?.equals(small.rawPayload)).toBe(true);
    expect(smallMarked.length).toBeLessThan(64 * 1024);

    const once = await ask('/api/unmarked', { 'accept-encoding': 'br' });
    expect(JSON.parse(decode('br', once.rawPayload))).toEqual(big);
    expect(keptCompressions(unmarked)).toBeUndefined();
  });
});

describeEachDatabase('answers compressed by the app', (env) => {
  it('answers get-cards compressed to a browser, the same cards as uncompressed', async () => {
    const team = await buildTeam(env);
    await buildCards(env, team.org, 30);
    const plain = await call(env, 'getCards', {}, { cookie: team.admin.cookie });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const answer = await env.app.inject({
      method: 'POST',
      url: '/api/get-cards',
      headers: {
        cookie: team.admin.cookie,
        'sec-fetch-site': 'same-origin',
        'accept-encoding': 'gzip, deflate, br, zstd',
        'content-type': 'application/json',
      },
      payload: {},
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-request-id']).toBeTruthy();
    expect(JSON.parse(decode('br', answer.rawPayload))).toEqual(plain.body);
  });
});
