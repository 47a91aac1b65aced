/**
 * The structural tenancy check (issue 10): every statement the app runs against a tenant table names the
 * organisation. The suite records the SQL of every call of the contract (each made once with a valid
 * sample, by a caller allowed to make it) and of the maintenance job, then reads each distinct statement:
 * a SELECT, UPDATE or DELETE touching a tenant table must filter on `org_id`, an INSERT must write it.
 * The few statements that by their nature come before any organisation is known (a session read by its
 * token, a key read by its value, sign-in by email) or span every organisation (maintenance) are listed
 * below with the reason; anything else fails, so a new query that forgets the tenant cannot land.
 */
import { beforeAll, expect, it } from 'vitest';
import { api, type CallDef, type CallName } from '../../common/api/index.ts';
import { ACCESS_ROLE, ROLES, hasRole } from '../../common/roles.ts';
import { runMaintenance } from '../jobs/maintenance.ts';
import { sendActionReminders } from '../modules/actions/reminders.ts';
import { sendScheduleReminders } from '../modules/schedules/reminders.ts';
import { unique } from '../test/factories.ts';
import { call, describeEachDatabase } from '../test/harness.ts';
import { buildFixture, samples, type Fixture } from './contractSamples.ts';

/** Tables whose rows belong to one organisation (each has an org_id column). */
export const TENANT_TABLES = [
  'users',
  'sessions',
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
  'evaluation_counts',
  'evaluation_totals',
  'anonymous_keys',
  'actions',
  'action_history',
  'schedules',
  'schedule_assignees',
  'schedule_notice_recipients',
  'schedule_digest_recipients',
  'api_tokens',
  'webhook_endpoints',
  'webhook_deliveries',
  'evaluation_signatures',
  'report_links',
  'sso_settings',
  'sso_states',
] as const;

/**
 * Statements allowed without an org_id filter, each with why. A pattern matches the statement's SQL with
 * placeholders normalised (`?`), so one entry covers both databases.
 */
export const UNSCOPED: { pattern: RegExp; why: string }[] = [
  {
    pattern: /^select .* from "sessions" .*where "sessions"\."token_hash" = \?/,
    why: 'a session is found by the hash of its token; the organisation comes from the row',
  },
  {
    pattern: /^select .* from "users" .*where "(users"\.")?email_key" (= \?|in \()/,
    why: 'sign-in, reset and sign-up find an address before any organisation is known; addresses are unique across organisations (decision 0467)',
  },
  {
    pattern: /^select .* from "anonymous_keys" .*where "anonymous_keys"\."key_hash" = \?/,
    why: 'an anonymous key is found by its hash; the organisation comes from the row',
  },
  {
    pattern: /^select .* from "api_tokens" .*where "api_tokens"\."token_hash" = \?/,
    why: 'an API token is found by the hash of its secret; the organisation comes from the row',
  },
  {
    pattern: /^select "id", "org_id" from "webhook_deliveries" where "status" = \?/,
    why: 'the webhook queue is one for the installation: a process claims due deliveries of any organisation, then works on each by org_id and id',
  },
  {
    pattern: /^select .* from "one_time_tokens" where "token_hash" = \?/,
    why: 'a reset or verification token is found by its hash; the organisation comes from the row',
  },
  {
    pattern:
      /^select .* from "organizations" inner join "sso_settings" .*where "organizations"\."name_key" = \?/,
    why: "the sign-in page asks for an organisation's single sign-on by the organisation's name, before anyone is signed in",
  },
  {
    pattern: /^select .* from "sso_states" .*where "sso_states"\."state_hash" = \?/,
    why: "a single sign-on's callback finds its state by the state's hash; the organisation comes from the row",
  },
  {
    pattern:
      /^delete from "(sessions|one_time_tokens|evaluations|sso_states)" where \(?"(idle_expires_at|expires_at|completed_at)"/,
    why: 'maintenance purges what has expired in every organisation',
  },
  {
    pattern:
      /^select .* from "result_photos" inner join "evaluations" .*where "evaluations"\."completed_at" is null/,
    why: "maintenance finds the photos of every organisation's unfinished evaluations it is about to purge",
  },
  {
    pattern: /^select .* from "report_links" where "token_hash" = \?/,
    why: 'a report share link is found by the hash of its token; the organisation comes from the row (decision 0713)',
  },
  {
    pattern:
      /^select .* from "evaluation_signatures" inner join "evaluations" .*where "evaluations"\."completed_at" is null/,
    why: "maintenance finds the signatures of every organisation's unfinished evaluations it is about to purge",
  },
  {
    pattern:
      /^select .* from "actions" inner join "users" .* inner join "organizations" .*where "actions"\."status" = \?/,
    why: 'the action reminders scan the open actions of every organisation (each claim then names its organisation)',
  },
  {
    pattern:
      /^select distinct "organizations"\."id", "organizations"\."name" from "schedules" inner join "organizations"/,
    why: 'the schedule reminders find which organisations have schedules; everything after names the organisation',
  },
];

const TENANT = new RegExp(`\\b(from|join|into|update)\\s+"(${TENANT_TABLES.join('|')})"`, 'g');

/** The statement with PostgreSQL's $1, $2… written as SQLite's ?, and spacing normalised. */
export function normalise(statement: string): string {
  return statement.replace(/\$\d+/g, '?').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * writeTogether's statement (decision 0755), `with "write_0" as (…), "write_1" as (…) <last>`, as its
 * writes, each checked on its own; any other statement as itself.
 */
function writesOf(text: string): string[] {
  if (!text.startsWith('with "write_0" as (')) return [text];
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    const head = /^(with |, ?)"write_\d+" as \(/.exec(text.slice(at));
    if (!head) break;
    const start = at + head[0].length;
    let depth = 1;
    let i = start;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')') depth--;
    }
    parts.push(text.slice(start, i - 1));
    at = i;
  }
  parts.push(text.slice(at).trim());
  return parts;
}

/** What is wrong with a statement's scoping, or null when it names the organisation (or is listed). */
export function tenancyProblem(statement: string): string | null {
  const writes = writesOf(normalise(statement));
  if (writes.length > 1) return writes.map(tenancyProblem).find((problem) => problem !== null) ?? null;
  const text = writes[0]!;
  const tables = [...text.matchAll(TENANT)].map((match) => match[2]!);
  if (tables.length === 0) return null;
  if (UNSCOPED.some(({ pattern }) => pattern.test(text))) return null;
  if (text.startsWith('insert')) {
    const columns = /^insert into "[a-z_]+" \(([^)]*)\)/.exec(text)?.[1] ?? '';
    return columns.includes('"org_id"') ? null : `inserts into ${tables[0]} without org_id`;
  }
  const filtered = /"org_id"\s*(=|in\b)/.test(text);
  return filtered ? null : `reads or writes ${[...new Set(tables)].join(', ')} without an org_id filter`;
}

const calls = (Object.entries(api) as [CallName, CallDef][]).map(([name, def]) => ({ name, def }));

const recorded = new Map<string, Set<string>>();
let recording: string | null = null;

describeEachDatabase(
  'tenancy: every statement on a tenant table names the organisation',
  (env) => {
    let a: Fixture;
    beforeAll(async () => {
      await buildFixture(env);
      // Building a fixture walks the API's happy paths (evaluations, results, feedback, anonymous).
      recording = 'fixture';
      a = await buildFixture(env);
      recording = null;
    });

    it('records the account links: sign-up, verification, reset and sign-in that succeed', async () => {
      recording = 'accounts';
      const email = `${unique('tenancy')}@example.com`;
      const password = 'a good password';
      expect((await call(env, 'signup', { orgname: unique('Tenancy '), email, password })).status).toBe(200);
      const verify = new URL(env.smtp.linkTo(email, '/verify')).searchParams.get('token')!;
      expect((await call(env, 'verifyEmail', { token: verify })).status).toBe(200);
      expect((await call(env, 'requestPasswordReset', { username: email })).status).toBe(200);
      const link = env.smtp.linkTo(email, '/reset-password/');
      const token = decodeURIComponent(new URL(link).pathname.split('/').pop()!);
      const reset = { username: email, password1: 'another password', password2: 'another password', token };
      expect((await call(env, 'resetPassword', reset)).status).toBe(200);
      const login = await call(env, 'login', { username: email, password: 'another password' });
      expect(login.status).toBe(200);
      recording = null;
    });

    it('records every call of the contract and the maintenance job', async () => {
      for (const { name, def } of calls) {
        const needed = ACCESS_ROLE[def.access];
        const role = needed ? ROLES.find((r) => hasRole(r, needed))! : null;
        recording = name;
        const answer = await call(env, name, samples[name](a), role ? { cookie: a[role].cookie } : {});
        recording = null;
        expect(answer.status, name).toBeLessThan(500);
      }
      recording = 'maintenance';
      await runMaintenance(env.services);
      // An overdue action, so the reminders scan, claim and send.
      await call(
        env,
        'addAction',
        { ...samples.addAction(a), dueDate: '2020-01-01' },
        { cookie: a.evaluator.cookie },
      );
      await sendActionReminders(env.services, env.clock.now());
      // The next day the fixture's daily schedule has a missed window: the schedule reminders scan and claim.
      await sendScheduleReminders(env.services, env.clock.now() + 86_400_000);
      recording = null;
      expect(recorded.size).toBeGreaterThan(50);
    });

    it('finds no statement on a tenant table without org_id', () => {
      const problems: string[] = [];
      for (const [statement, sources] of recorded) {
        const problem = tenancyProblem(statement);
        if (problem) problems.push(`${[...sources].join(', ')}: ${problem}\n  ${normalise(statement)}`);
      }
      expect(problems).toEqual([]);
    });
  },
  {
    onQuery: (statement) => {
      if (recording === null) return;
      const key = normalise(statement);
      const sources = recorded.get(key) ?? new Set<string>();
      sources.add(recording);
      recorded.set(key, sources);
    },
  },
);

it('the checker finds a read, a write by id and an insert that forget the organisation', () => {
  expect(tenancyProblem('select "id" from "boards" where "boards"."id" = $1')).toMatch(/org_id/);
  expect(tenancyProblem('update "cards" set "name" = ? where "id" = ?')).toMatch(/org_id/);
  expect(tenancyProblem('delete from "feedback" where "id" = ?')).toMatch(/org_id/);
  expect(tenancyProblem('insert into "boards" ("name") values (?)')).toMatch(/org_id/);
  expect(tenancyProblem('select * from "organizations" where "id" = ?')).toBeNull();
  expect(
    tenancyProblem('select "r".* from "results" as "r" inner join "evaluations" on 1 where "org_id" = ?'),
  ).toBeNull();
  expect(tenancyProblem('insert into "boards" ("org_id", "name") values (?, ?)')).toBeNull();
  // writeTogether's statement (decision 0755): each of its writes on its own.
  const together = (...writes: string[]) =>
    `with ${writes
      .slice(0, -1)
      .map((w, i) => `"write_${i}" as (${w})`)
      .join(', ')} ${writes.at(-1)}`;
  expect(
    tenancyProblem(
      together(
        'insert into "results" ("org_id", "item_id") values (?, ?), (?, ?)',
        'insert into "boards" ("org_id", "name") values (?, ?)',
      ),
    ),
  ).toBeNull();
  expect(
    tenancyProblem(
      together(
        'insert into "results" ("item_id") values (?)',
        'insert into "boards" ("org_id", "name") values (?, ?)',
      ),
    ),
  ).toMatch(/inserts into results without org_id/);
  expect(
    tenancyProblem(
      together(
        'insert into "results" ("org_id", "item_id") values (?, ?)',
        'update "cards" set "name" = ? where "id" = ?',
      ),
    ),
  ).toMatch(/cards without an org_id filter/);
});
