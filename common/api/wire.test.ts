import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CallDef } from './define.ts';
import { api } from './index.ts';
import * as vocabulary from './vocabulary.ts';
import { WIRE_FACTS, wireFactsOf, wireModule } from './wire.ts';

describe("the browser's wire facts of the contract (decision 0628)", () => {
  const facts = wireFactsOf(api);

  it('has every call, with exactly the facts it sets, equal to the contract', () => {
    expect(Object.keys(facts).sort()).toEqual(Object.keys(api).sort());
    for (const [name, call] of Object.entries(api as Record<string, CallDef>)) {
      const expected = Object.fromEntries(
        WIRE_FACTS.filter((fact) => call[fact] !== undefined).map((fact) => [fact, call[fact]]),
      );
      expect(facts[name], name).toEqual(expected);
      expect(facts[name], name).not.toHaveProperty('request');
      expect(facts[name], name).not.toHaveProperty('response');
    }
  });

  it('keeps what the request layer needs for a file download and for a state-changing call', () => {
    expect(facts.getEvaluationReport).toMatchObject({ method: 'GET', file: true, document: true });
    expect(facts.addResults).toMatchObject({ method: 'POST', mutates: true });
    expect(facts.addResults!.failMsg).toBe(api.addResults.failMsg);
  });

  it('is a module of plain data that re-exports the vocabulary', () => {
    const text = wireModule(api, '/abs/common/api/vocabulary.ts');
    expect(text).toContain('export * from "/abs/common/api/vocabulary.ts";');
    const json = text.slice(text.indexOf('export const api = ') + 'export const api = '.length).trim();
    expect(JSON.parse(json.replace(/;$/, ''))).toEqual(facts);
    expect(text).not.toMatch(/zod|import /);
  });

  it('the vocabulary is plain values, no schemas', () => {
    for (const [name, value] of Object.entries(vocabulary))
      expect(typeof value === 'object' && value !== null && '_zod' in value, name).toBe(false);
  });

  it('provides every value the web imports from the contract (the build fails otherwise)', () => {
    const web = path.resolve(import.meta.dirname, '../../web');
    const files = readdirSync(web, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
    );
    const provided = new Set(['api', ...Object.keys(vocabulary)]);
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(web, file), 'utf8');
      for (const [, names] of text.matchAll(/import \{([^}]*)\} from '[./]*common\/api\/index\.ts'/g))
        for (const name of names!.split(',').map((n) => n.trim()))
          if (name && !name.startsWith('type ') && !provided.has(name))
            missing.push(`${file}: ${name} (move it to common/api/vocabulary.ts)`);
    }
    expect(missing).toEqual([]);
  });
});
