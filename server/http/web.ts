/**
 * Serves the built web app: hashed assets cached for a year, index.html for every page path (the router
 * decides what it shows, including 'Page Not Found'), and /version.txt, the build's id, never cached.
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
