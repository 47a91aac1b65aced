/**
 * Nothing is answered while a commit is not on the disk (docs/decisions/0752): with SQLite's commits synced
 * off the event loop, each answer waits for the sync already running, if any. A write's answer is so never
 * sent before the write is durable, nor a read's before what it read is. With nothing pending there is no
 * wait and no promise. A failed sync answers 503 (the client's retry rule applies; an idempotent retry then
 * finds the write, or does it again).
 */
import type { FastifyInstance } from 'fastify';
import type { CommitSync } from '../db/sqliteCommitSync.ts';
import { UNAVAILABLE_MESSAGE } from './errors.ts';

export function registerDurableAnswers(app: FastifyInstance, commits: CommitSync) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!commits.pending) return done(null, payload);
    commits.settled().then(
      () => done(null, payload),
      (error: unknown) => {
        request.log.error({ err: error }, 'database log could not be synced');
        if (payload && typeof (payload as { destroy?: unknown }).destroy === 'function')
          (payload as { destroy(): void }).destroy();
        reply
          .code(503)
          .removeHeader('content-disposition')
          .header('content-type', 'application/json; charset=utf-8')
          .header('Cache-Control', 'no-store')
          .header('Retry-After', '5');
        done(null, JSON.stringify({ errMsg: request.routeOptions.config?.failMsg ?? UNAVAILABLE_MESSAGE }));
      },
    );
  });
}
