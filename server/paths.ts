import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The folder holding package.json, whether running from source (server/) or from the build (dist/server/). */
function findProjectRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot(import.meta.dirname);
export const webDistDir = path.join(projectRoot, 'dist', 'web');

/** package.json's version: the API description's version. */
export function projectVersion(): string {
  const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return version ?? '0.0.0';
}
