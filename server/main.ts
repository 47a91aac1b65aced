/** Starts the server: configuration, database (migrated), then listen. Failures print one line. */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, redactUrl, type Config } from './config.ts';
import { openAndMigrate, type Database } from './db/index.ts';
import { allJobs } from './jobs/index.ts';
import { startItemTotalsFold } from './jobs/itemTotalsFold.ts';
import { startJobs } from './jobs/runner.ts';
import { startWebhookDelivery } from './webhooks/deliver.ts';

function describeDatabaseError(config: Config, error: unknown): string {
  const where = config.database.kind === 'postgres' ? redactUrl(config.database.url) : config.database.file;
  const reason =
    error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return `Cannot open the database set by DATABASE_URL (${where}): ${reason}`;
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let database: Database;
  try {
    database = await openAndMigrate(config.database, {
      backgroundCheckpoint: true,
      syncCommitsOffLoop: true,
    });
  } catch (error) {
    console.error(describeDatabaseError(config, error));
    process.exit(1);
  }

  const { app, services } = await buildApp({ config, database, exportWorkers: true });
  database.checkpointer?.reportProblemsTo((problem, error) => app.log.error({ err: error }, problem));
  const stopJobs = startJobs(services, allJobs, app.log, config.jobsPollSeconds * 1000);
  const stopWebhooks = startWebhookDelivery(services, app.log);
  const stopFold = startItemTotalsFold(services.db, app.log);
  const shutdown = async () => {
    stopJobs();
    stopWebhooks();
    stopFold();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as { code?: string }).code;
    console.error(
      code === 'EADDRINUSE'
        ? `Cannot listen on PORT ${config.port}: the port is already in use.`
        : `Cannot listen on HOST ${config.host} PORT ${config.port}: ${(error as Error).message}`,
    );
    process.exit(1);
  }
  app.log.info(`Checkboard is serving ${config.appUrl} (${database.dialect})`);
  app.log.info(`Photos are stored in the ${services.storage.description}`);
}

void main();
