/**
 * Serves the built web app: hashed assets cached for a year as immutable, index.html for every page path
 * (the router decides what it shows, including 'Page Not Found') revalidated each time, and /version.txt,
 * the build's id, never cached. Text files go out as the brotli or gzip file made at build time, as the
 * client's Accept-Encoding allows (Vary: Accept-Encoding); source maps are never served (decision 0622).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const DEV_BUILD_ID = 'development';

export async function registerWeb(app: FastifyInstance, webDir: string | null) {
  const built = webDir !== null && existsSync(path.join(webDir, 'index.html'));

  app.get('/version.txt', async (_request, reply) => {
    let id = DEV_BUILD_ID;
    if (built)
      id = (await readFile(path.join(webDir, 'version.txt'), 'utf8').catch(() => DEV_BUILD_ID)).trim();
    return reply.header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(id);
  });

  if (built) {
    app.get('/', (_request, reply) =>
      reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html'),
    );
    await app.register(fastifyStatic, {
      root: webDir!,
      index: false,
      wildcard: true,
      preCompressed: true,
      // The build keeps its maps outside this folder; a map left inside by an older build stays private.
      allowedPath: (pathname) => !pathname.endsWith('.map'),
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    if (pathname.startsWith('/api/')) return reply.code(404).send({ errMsg: 'Not found.' });
    if ((request.method === 'GET' || request.method === 'HEAD') && built && !path.extname(pathname)) {
      return reply
        .header('Cache-Control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile('index.html');
    }
    if (!built && request.method === 'GET' && !pathname.startsWith('/api/')) {
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built. Run `npm start` (which builds it) or `npm run dev`.');
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
  });
}
