/**
 * Malformed requests for every call of the contract (fast-check, issue 10): each call's valid sample with
 * one field replaced by a wrong type, a huge or NUL-bearing string, an extreme number or date, or with
 * `__proto__`, `constructor` or unknown fields added, or a whole body of random JSON. Never a 5xx; a
 * refusal is JSON with an errMsg and writes nothing. Runs on SQLite and PostgreSQL.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { api, type CallDef, type CallName } from '../../common/api/index.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../../common/constants.ts';
import { allHandlers } from '../modules/index.ts';
import { describeEachDatabase, type TestEnv } from '../test/harness.ts';
import { buildFixture, samples, type Fixture } from './contractSamples.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

const weird = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    -0,
    1e308,
    -1e308,
    2 ** 53 + 1,
    0.5,
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    'x'.repeat(100_000),
    '\uD800',
    '0000-01-01T00:00:00Z',
    '+275760-09-13T00:00:00.000Z',
    '2025-02-30T00:00:00Z',
    'not a date',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    [],
    [null],
    {},
    { __proto__: { admin: true } },
  ),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.integer(), { maxLength: 5 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Every path to a value in the sample, nested ones included (results[0].pass, card.cardItems[0]…). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const inner = Array.isArray(value)
    ? value.flatMap((v, i) => paths(v, [...prefix, i]))
    : value !== null && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))
      : [];
  return prefix.length ? [prefix, ...inner] : inner;
}

function setAt(sample: unknown, path: (string | number)[], value: unknown): unknown {
  if (!path.length) return value;
  const copy = (Array.isArray(sample) ? [...sample] : { ...(sample as object) }) as Record<
    string | number,
    unknown
  >;
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), value);
  return copy;
}

/** The sample as JSON text with one change; JSON text so `__proto__` arrives as a real key. */
function mutate(sample: Record<string, unknown>, change: { kind: number; pick: number; value: unknown }) {
  const keys = Object.keys(sample);
  const key = keys.length ? keys[change.pick % keys.length]! : 'field';
  const text = JSON.stringify(sample);
  switch (change.kind % 6) {
    case 0: {
      const all = paths(sample);
      const path = all.length ? all[change.pick % all.length]! : ['field'];
      return JSON.stringify(setAt(sample, path, change.value));
    }
    case 1: {
      const { [key]: _removed, ...rest } = sample;
      return JSON.stringify(rest);
    }
    case 2:
      return text
        .replace(/^\{/, `{"__proto__":${JSON.stringify({ isOwner: true, role: 'owner' })},`)
        .replace(',}', '}');
    case 3:
      return text.replace(/^\{/, '{"constructor":{"prototype":{"polluted":true}},').replace(',}', '}');
    case 4:
      return JSON.stringify({ ...sample, unexpectedField: change.value });
    default:
      return JSON.stringify(change.value ?? null);
  }
}

async function tenantRows(env: TestEnv, orgId: number) {
  const tables = [
    'users',
    'boards',
    'board_cards',
    'cards',
    'card_items',
    'evaluations',
    'results',
    'result_photos',
    'action_photos',
    'feedback',
    'dashboards',
    'checkouts',
  ] as const;
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = await env.db.selectFrom(table).selectAll().where('org_id', '=', orgId).execute();
    out[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

const registered = new Set(Object.keys(allHandlers));
const calls = (Object.entries(api) as [CallName, CallDef][]).filter(([name]) => registered.has(name));

describeEachDatabase('malformed requests', (env) => {
  let a: Fixture;
  beforeAll(async () => {
    a = await buildFixture(env);
  });

  /** One request; never a 5xx, and a refusal is an errMsg that changed nothing. */
  async function check(name: CallName, def: CallDef, body: string) {
    const before = def.mutates ? await tenantRows(env, a.org.id) : null;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'sec-fetch-site': 'same-origin',
      [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: `fuzz-${Math.random()}`,
    };
    if (def.access !== 'anonymous' && def.access !== 'public') headers.cookie = a.owner.cookie;
    const response = await env.app.inject({
      method: def.method,
      url: def.path,
      headers,
      ...(def.method === 'GET' ? { query: { q: body } } : { payload: body }),
    });
    const what = `${name} ${body.slice(0, 200)}`;
    expect(response.statusCode, what).toBeLessThan(500);
    if (response.statusCode >= 400) {
      expect(response.json(), what).toHaveProperty('errMsg');
      if (before) expect(await tenantRows(env, a.org.id), what).toEqual(before);
    }
    // Nothing reached the prototype every object shares.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isOwner).toBeUndefined();
  }

  for (const [name, def] of calls) {
    it(`${name}: each field NUL-bearing, huge, an object or extreme → no 5xx, a refusal writes nothing`, async () => {
      const sample = samples[name](a) as Record<string, unknown>;
      for (const path of paths(sample)) {
        for (const value of ['a\u0000b', 'x'.repeat(100_000), { nested: [1] }, 1e308, -1]) {
          await check(name, def, JSON.stringify(setAt(sample, path, value)));
        }
      }
    });

    it(`${name}: random malformed bodies → no 5xx, a refusal writes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.record({ kind: fc.nat(), pick: fc.nat(), value: weird }), (change) =>
          check(name, def, mutate(samples[name](a) as Record<string, unknown>, change)),
        ),
        { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261123) },
      );
    });
  }
});
