/** What every benchmark reads the same way: its numeric settings from the environment, and where results go. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const resultsDir = path.join(benchDir, 'results');

/** A numeric setting from the environment (`1_000_000` allowed), or the fallback. */
export function numberSetting(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value.replaceAll('_', ''));
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${name} must be a number (got "${value}")`);
  return parsed;
}

/** The scale every benchmark seeds: the measured organisation's evaluations and the other organisations'. */
export const EVALUATIONS = numberSetting('BENCH_EVALUATIONS', 1_000_000);
export const OTHER_EVALUATIONS = numberSetting('BENCH_OTHER_EVALUATIONS', Math.round(EVALUATIONS / 5));
