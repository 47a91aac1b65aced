/**
 * Builds the server: plumbing, every module's calls, and the web app. Tests call buildApp and use
 * app.inject; main.ts adds listen.
 */
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { PHOTO_BYTES_MAX, UPLOAD_CONTENT_TYPE } from '../common/evidence.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Services } from './context.ts';
import type { Database } from './db/index.ts';
import { registerCompression } from './http/compression.ts';
import { registerDurableAnswers } from './http/durable.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerHealth } from './http/health.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { redactUrl } from './http/logUrls.ts';
import { registerCalls } from './http/register.ts';
import { registerSecurity } from './http/security.ts';
import { registerWeb } from './http/web.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { exportInWorkers } from './exports/inWorker.ts';
import { exportInProcess } from './exports/tasks.ts';
import { registerStripeWebhook } from './modules/billing/webhook.ts';
import { allHandlers } from './modules/index.ts';
import { registerSsoCallback } from './modules/sso/callback.ts';
import { projectVersion, webDistDir } from './paths.ts';
import { loadOrCreateSecret } from './secret.ts';
import { createStorage, type Storage } from './storage/storage.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  mailer?: Mailer;
  /** Pino logger options; false silences it (tests). */
  logger?: boolean | object;
  webDir?: string;
  /** Tests may hand their own (an S3 store on a test server); otherwise made from the configuration. */
  storage?: Storage;
  /**
   * Excel exports in a worker thread each, with a connection of its own to `database.location` (decision
   * 0750): what the server does. Off, they run in this process (tests on an in-memory database).
   */
  exportWorkers?: boolean;
}

export interface App {
  app: FastifyInstance;
  services: Services;
}

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database } = options;
  // The request log never carries the secrets some page URLs hold (anonymous keys, one-time tokens).
  const serializers = {
    req: (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
      method: request.method,
      url: redactUrl(request.url),
      host: request.hostname,
      remoteAddress: request.ip,
    }),
  };
  const logger =
    options.logger === false
      ? false
      : {
          level: config.logLevel,
          ...(typeof options.logger === 'object' ? options.logger : {}),
          serializers,
        };
  const app = Fastify({
    logger,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  if (database.commits) registerDurableAnswers(app, database.commits);
  registerCompression(app);

  // JSON is the only body the API takes, except the photo uploads' image data (their paths only: security.ts).
  app.removeContentTypeParser(['text/plain']);
  app.addContentTypeParser(
    UPLOAD_CONTENT_TYPE,
    { parseAs: 'buffer', bodyLimit: PHOTO_BYTES_MAX },
    (_request, body, done) => done(null, body),
  );
  await app.register(fastifyCookie);
  registerSecurity(app, config.appUrl);
  registerErrorHandler(app);

  const services: Services = {
    config,
    db: database.db,
    dialect: database.dialect,
    clock: options.clock ?? systemClock,
    mailer: options.mailer ?? createMailer(config, app.log),
    secret: await loadOrCreateSecret(database.db, config.sessionSecret),
    storage: options.storage ?? createStorage(config.storage),
    exports: exportInProcess(database.db),
  };
  if (options.exportWorkers) {
    const workers = exportInWorkers(database.location);
    services.exports = workers.run;
    app.addHook('onClose', () => workers.close());
  }
  registerMetrics(app, config.metricsToken, database.poolStats);
  registerHealth(app, services.db);
  registerCalls(app, services, allHandlers);
  registerOpenApi(app, projectVersion(), config.appUrl);
  await registerStripeWebhook(app, services);
  registerSsoCallback(app, services);
  // In development Vite serves the app (npm run dev); a stale build must not answer for it.
  await registerWeb(app, config.env === 'development' ? null : (options.webDir ?? webDistDir));
  return { app, services };
}
