/**
 * What the browser needs to know of each call to make it: where, how, who, and what to say when it fails.
 * The web client's production build loads these facts in place of the contract (vite.config.ts,
 * docs/decisions/0628), so zod and the request and response schemas, which only the server runs, are not
 * sent to phones. Types still come from the whole contract.
 */
import type { CallDef } from './define.ts';

export const WIRE_FACTS = [
  'path',
  'method',
  'access',
  'mutates',
  'failMsg',
  'file',
  'upload',
  'image',
  'document',
] as const satisfies readonly (keyof CallDef)[];

export type WireFacts = Pick<CallDef, (typeof WIRE_FACTS)[number]>;

/** Each call's wire facts, leaving out those it does not set. */
export function wireFactsOf(calls: Record<string, CallDef>): Record<string, WireFacts> {
  return Object.fromEntries(
    Object.entries(calls).map(([name, call]) => [
      name,
      Object.fromEntries(
        WIRE_FACTS.filter((fact) => call[fact] !== undefined).map((fact) => [fact, call[fact]]),
      ) as unknown as WireFacts,
    ]),
  );
}

/**
 * The module the browser build loads for common/api/index.ts: `api` as plain data, and the contract's plain
 * values (vocabulary.ts, given by its absolute path). A value the web imports from the contract that is
 * neither fails the build (a missing export), never a page.
 */
export function wireModule(calls: Record<string, CallDef>, vocabulary: string): string {
  return (
    `export * from ${JSON.stringify(vocabulary)};\n` +
    `export const api = ${JSON.stringify(wireFactsOf(calls))};\n`
  );
}
