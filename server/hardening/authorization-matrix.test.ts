/**
 * The authorization matrix (issue 10), generated from the contract: every call of common/api is made with
 * no session, by each role below the one it needs, by a member of an unpaid organisation, by another
 * organisation's Owner with this organisation's ids, and (for the -anon calls) with no key, another
 * board's key and another organisation's key. Each refusal is checked, the target organisation's rows are
 * compared before and after (nothing written), and its planted marker string must appear in no answer
 * (spreadsheets are unzipped and read). A call added to the contract without a sample here fails the
 * first test (and the type check: `samples` must name every call).
 */
import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { api, type CallDef, type CallName } from '../../common/api/index.ts';
import { ACCESS_ROLE, ROLES, hasRole, type Role } from '../../common/roles.ts';
import { allHandlers } from '../modules/index.ts';
import { call, describeEachDatabase, type CallAnswer, type TestEnv } from '../test/harness.ts';
import { buildFixture, MARKER, samples, type Fixture } from './contractSamples.ts';

const registered = new Set(Object.keys(allHandlers));
const calls = (Object.entries(api) as [CallName, CallDef][]).map(([name, def]) => ({ name, def }));
const memberCalls = calls.filter(({ def }) => ACCESS_ROLE[def.access] !== undefined);
const anonymousCalls = calls.filter(({ def }) => def.access === 'anonymous');

/** Tenant rows of one organisation, as a comparable value. */
async function snapshot(env: TestEnv, orgId: number) {
  const tables = [
    'users',
    'one_time_tokens',
    'checkouts',
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
    'dashboard_settings',
    'anonymous_keys',
    'actions',
    'action_history',
    'api_tokens',
    'webhook_endpoints',
    'webhook_deliveries',
    'sso_settings',
    'sso_states',
  ] as const;
  const out: Record<string, unknown> = {
    organization: await env.db.selectFrom('organizations').selectAll().where('id', '=', orgId).execute(),
  };
  for (const table of tables) {
    const rows = await env.db.selectFrom(table).selectAll().where('org_id', '=', orgId).execute();
    out[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/** Everything an answer shows, spreadsheets read cell by cell. */
async function answerText(answer: CallAnswer): Promise<string> {
  if (Buffer.isBuffer(answer.body) && answer.body.subarray(0, 2).toString() === 'PK') {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(answer.body as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.eachSheet((sheet) =>
      sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text ?? cell.value)))),
    );
    return cells.join('\n');
  }
  return `${JSON.stringify(answer.headers)}\n${Buffer.isBuffer(answer.body) ? answer.body.toString('latin1') : JSON.stringify(answer.body)}`;
}

function lowerRoles(access: CallDef['access']): Role[] {
  const needed = ACCESS_ROLE[access]!;
  return ROLES.filter((role) => !hasRole(role, needed));
}

describeEachDatabase('authorization matrix', (env) => {
  let a: Fixture;
  let b: Fixture;
  let unpaid: Fixture;
  beforeAll(async () => {
    a = await buildFixture(env);
    b = await buildFixture(env, { marker: MARKER });
    unpaid = await buildFixture(env, { paid: false });
  });

  it('has a sample request for every call of the contract, valid by its own schema', () => {
    expect(Object.keys(samples).sort()).toEqual(Object.keys(api).sort());
    for (const { name, def } of calls) {
      const parsed = def.request.safeParse(samples[name](a) as unknown);
      expect(parsed.success ? null : parsed.error.issues, name).toBeNull();
    }
  });

  for (const { name, def } of memberCalls) {
    it.skipIf(!registered.has(name))(`${name}: no session → 401, nothing written`, async () => {
      const before = await snapshot(env, a.org.id);
      const answer = await call(env, name, samples[name](a));
      expect(answer.status, name).toBe(401);
      expect(answer.body.errMsg).toBe('Please sign in to continue.');
      expect(await snapshot(env, a.org.id)).toEqual(before);
    });

    for (const role of lowerRoles(def.access)) {
      it.skipIf(!registered.has(name))(`${name}: ${role} → 403, nothing written`, async () => {
        const before = await snapshot(env, a.org.id);
        const answer = await call(env, name, samples[name](a), { cookie: a[role].cookie });
        expect(answer).toMatchObject({ status: 403, body: { errMsg: 'Not authorized.' } });
        expect(await snapshot(env, a.org.id)).toEqual(before);
      });
    }

    it.skipIf(!registered.has(name) || def.whenUnpaid === true)(
      `${name}: member of an unpaid organisation → 402, nothing written`,
      async () => {
        const before = await snapshot(env, unpaid.org.id);
        const answer = await call(env, name, samples[name](unpaid), { cookie: unpaid.owner.cookie });
        expect(answer).toMatchObject({ status: 402, body: { errMsg: 'Your account is unpaid.' } });
        expect(await snapshot(env, unpaid.org.id)).toEqual(before);
      },
    );
  }

  for (const { name } of anonymousCalls) {
    it.skipIf(!registered.has(name))(
      `${name}: no key, another board's key, another organisation's key`,
      async () => {
        const before = { a: await snapshot(env, a.org.id), b: await snapshot(env, b.org.id) };
        const own = samples[name](a) as Record<string, unknown>;
        const attempts = {
          'no key': { ...own, anonKey: 'x'.repeat(43) },
          "another board's key": { ...own, anonKey: a.otherBoardKey },
          "another organisation's key": { ...own, anonKey: b.anonKey },
          "this key on another organisation's board": { ...(samples[name](b) as object), anonKey: a.anonKey },
          'a session instead of a key': { ...own, anonKey: '' },
        };
        for (const [what, body] of Object.entries(attempts)) {
          const answer = await call(env, name, body, { cookie: a.owner.cookie });
          expect(answer.status, `${name}: ${what}`).toBeGreaterThanOrEqual(400);
          expect(answer.status, `${name}: ${what}`).toBeLessThan(500);
          expect((await answerText(answer)).toLowerCase()).not.toContain(MARKER.toLowerCase());
        }
        expect({ a: await snapshot(env, a.org.id), b: await snapshot(env, b.org.id) }).toEqual(before);
      },
    );
  }

  // Last: these may legitimately change the caller's own organisation (e.g. add-card), never the other.
  for (const { name } of memberCalls) {
    const aimed = (body: unknown) =>
      /"(?:id|ID|\w+ID|\w+Id|\w+_id)":\s*\[?\d/.test(JSON.stringify(body)) ||
      JSON.stringify(body).includes(MARKER);
    it.skipIf(!registered.has(name))(
      `${name}: another organisation's Owner with this organisation's ids → refused, nothing leaked or written`,
      async () => {
        const before = await snapshot(env, b.org.id);
        const body = samples[name](b);
        const answer = await call(env, name, body, { cookie: a.owner.cookie });
        expect((await answerText(answer)).toLowerCase(), name).not.toContain(MARKER.toLowerCase());
        if (aimed(body)) {
          expect(answer.status, name).toBeGreaterThanOrEqual(400);
          expect(answer.status, name).toBeLessThan(500);
        } else {
          expect(answer.status, name).toBeLessThan(500);
        }
        expect(await snapshot(env, b.org.id), name).toEqual(before);
      },
    );
  }

  it("leaks nothing of the other organisation in any of the caller's own answers", async () => {
    // Every read of organisation A, by its Owner, with A's ids: B's marker never appears.
    for (const { name, def } of memberCalls) {
      if (!registered.has(name) || def.mutates) continue;
      const answer = await call(env, name, samples[name](a), { cookie: a.owner.cookie });
      expect(answer.status, name).toBeLessThan(500);
      expect((await answerText(answer)).toLowerCase(), name).not.toContain(MARKER.toLowerCase());
    }
  });
});
