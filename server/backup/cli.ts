/**
 * `npm run backup [-- FILE]` and `npm run restore -- FILE [--force]`: the database DATABASE_URL names,
 * to or from FILE (decision 0604). Without FILE, a backup goes to backups/checkboard-<time>.(sqlite|dump).
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { projectRoot } from '../paths.ts';
import { BackupError, backupDatabase, restoreDatabase } from './backup.ts';

const USAGE = 'Usage: npm run backup [-- FILE]  |  npm run restore -- FILE [--force]';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const force = rest.includes('--force');
  const file = rest.find((arg) => !arg.startsWith('--'));
  const config = loadConfig();
  if (command === 'backup') {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const extension = config.database.kind === 'sqlite' ? 'sqlite' : 'dump';
    const target = path.resolve(
      file ?? path.join(projectRoot, 'backups', `checkboard-${stamp}.${extension}`),
    );
    await backupDatabase(config.database, target);
    process.stdout.write(`Backed up the ${config.database.kind} database to ${target}\n`);
    return 0;
  }
  if (command === 'restore' && file) {
    await restoreDatabase(config.database, path.resolve(file), { force });
    process.stdout.write(`Restored ${path.resolve(file)} into the ${config.database.kind} database.\n`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof BackupError || error instanceof ConfigError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);
