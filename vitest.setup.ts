/** Fail loudly: a test that logs an unexpected console.error fails (Epic Stack). */
import { afterEach, beforeEach, expect, vi } from 'vitest';

let errors: unknown[][] = [];

beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  expect(
    errors,
    `console.error was called:\n${errors.map((e) => e.map(String).join(' ')).join('\n')}`,
  ).toEqual([]);
});
