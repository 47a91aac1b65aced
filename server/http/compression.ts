/**
 * API answers of JSON go compressed to a client that accepts it (decision 0777): brotli, else gzip, as the
 * request's Accept-Encoding allows, for answers of at least COMPRESS_MIN_BYTES. The board view's answer of ~700
 * evaluations is ~155 KB of JSON and ~12 KB compressed, asked for again every 30 s by every open board, often
 * over a phone's connection. Fast settings (brotli quality 3 took 0.49 ms for that answer, gzip level 1 0.26 ms
 * and level 6 0.77 ms: decision 0777), off the event loop from ASYNC_FROM_BYTES (zlib's thread pool).
 *
 * Only same-origin requests (Sec-Fetch-Site same-origin or none, or none sent: not a browser) are answered
 * compressed: a page of another site can then never have a browser fetch a compressed answer with its chosen
 * text beside the user's data, and so never learn that data from the answers' sizes (BREACH).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { keptCompressions } from '../lib/compressedOnce.ts';

export const COMPRESS_MIN_BYTES = 1024;
const ASYNC_FROM_BYTES = 64 * 1024;
const BROTLI_QUALITY = 3;
const GZIP_LEVEL = 3;

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

type Encoding = 'br' | 'gzip';

/** The encoding an Accept-Encoding header allows, brotli first; null for none (identity). */
export function chooseEncoding(header: string | string[] | undefined): Encoding | null {
  if (header === undefined) return null;
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const allows = (name: string) => {
    const weight = accepted.get(name) ?? (name === 'x-gzip' ? undefined : accepted.get('*'));
    return weight !== undefined && weight > 0;
  };
  if (allows('br')) return 'br';
  if (allows('gzip') || allows('x-gzip')) return 'gzip';
  return null;
}

function sameOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

function compressible(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): payload is string | Buffer {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  if (request.method === 'HEAD' || reply.statusCode === 204 || reply.statusCode === 304) return false;
  if (!request.url.startsWith('/api/') || reply.hasHeader('content-encoding')) return false;
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.startsWith('application/json');
}

function compressSync(data: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? zlib.brotliCompressSync(data, brotliOptions(data.length))
    : zlib.gzipSync(data, { level: GZIP_LEVEL });
}

function compressAsync(data: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotliAsync(data, brotliOptions(data.length))
    : gzipAsync(data, { level: GZIP_LEVEL });
}

function brotliOptions(size: number): zlib.BrotliOptions {
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

export function registerCompression(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!compressible(request, reply, payload)) return done(null, payload);
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (size < COMPRESS_MIN_BYTES) return done(null, payload);
    // The answer depends on the request's Accept-Encoding from here on, compressed or not.
    reply.header('Vary', varyWith(reply.getHeader('vary')));
    const encoding = sameOrigin(request) ? chooseEncoding(request.headers['accept-encoding']) : null;
    if (!encoding) return done(null, payload);
    const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
    // Bytes sent again as they are (decision 0785) are compressed once per encoding.
    const kept = keptCompressions(data);
    const send = (compressed: Buffer) => {
      kept?.set(encoding, compressed);
      reply.header('Content-Encoding', encoding).removeHeader('content-length');
      done(null, compressed);
    };
    const already = kept?.get(encoding);
    if (already) return send(already);
    if (data.length < ASYNC_FROM_BYTES) return send(compressSync(data, encoding));
    compressAsync(data, encoding).then(send, (error: unknown) => {
      // Not compressed is still a right answer.
      request.log.warn({ err: error }, 'answer not compressed');
      done(null, data);
    });
  });
}

function varyWith(current: ReturnType<FastifyReply['getHeader']>): string {
  const given = Array.isArray(current) ? current.join(', ') : typeof current === 'string' ? current : '';
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(given)) return given;
  return given ? `${given}, Accept-Encoding` : 'Accept-Encoding';
}
