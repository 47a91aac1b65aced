/**
 * `npm run bench:lighthouse` (bench/README.md, decision 0624): Lighthouse's performance and accessibility
 * scores of the three pages a phone opens most (issue 15): the board view, the evaluation page and the
 * anonymous evaluation page, with the `lighthouse` package's default configuration (mobile emulation,
 * simulated throttling) in Debian's Chromium, against the built server (`npm run build` first; it builds
 * nothing itself) on SQLite, seeded with the benchmarks' data set (bench/seed.ts).
 *
 * Chromium is started here with a DevTools port; Playwright connects to it once to sign the evaluator in
 * (session cookie, expiry cookie, `logged_in`) and to check that each route draws, then lets go, and
 * Lighthouse runs alone on that port. Before each run Lighthouse clears the origin's HTTP cache, service
 * workers, caches and (asked here) IndexedDB; cookies and localStorage stay, so the pages open signed in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import type { Result } from 'lighthouse';
import { insertSession, SESSION_COOKIE } from '../server/auth/sessions.ts';
import { openDatabase } from '../server/db/index.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { paths } from '../web/lib/paths.ts';
import { startDistServer } from './distServer.ts';
import { seed, sqliteBulk } from './seed.ts';
import { numberSetting, resultsDir } from './settings.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const EVALUATIONS = numberSetting('BENCH_LIGHTHOUSE_EVALUATIONS', 100_000);
const RUNS = Math.max(1, numberSetting('BENCH_LIGHTHOUSE_RUNS', 3));
const PORT = process.env.BENCH_PORT ? numberSetting('BENCH_PORT', 0) : undefined;
/** Only these routes (comma-separated names, e.g. "board view"), for working on one page. */
const ONLY = process.env.BENCH_LIGHTHOUSE_ROUTES?.split(',').map((name) => name.trim());
const TARGET = { performance: 0.95, accessibility: 1 };
const say = (line: string) => console.log(line);
const load = () => os.loadavg().map((v) => v.toFixed(1));

interface Route {
  route: string;
  path: string;
  /** Text the route draws once its data is there: checked before Lighthouse runs. */
  ready: string;
}

/** Seeds the data set in a fresh SQLite file and opens one board to anonymous evaluations. */
async function seedDatabase(file: string) {
  const database = openDatabase({ kind: 'sqlite', file });
  await migrateToLatest(database.db, 'sqlite');
  const bulk = sqliteBulk(file);
  const now = Date.now();
  const seeded = await seed(
    bulk,
    {
      evaluations: EVALUATIONS,
      otherOrganisations: 20,
      otherEvaluations: Math.round(EVALUATIONS / 5),
      boards: 50,
      cardsPerBoard: 10,
      evaluators: 100,
      now,
    },
    (line) => say(line),
  );
  await bulk.run('analyze');
  await bulk.run('pragma wal_checkpoint(truncate)');
  await bulk.close();
  const db = database.db;
  const org = await db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('id', '=', seeded.mainOrgId)
    .executeTakeFirstOrThrow();
  const board = await db
    .selectFrom('boards')
    .select(['id', 'name'])
    .where('id', '=', seeded.boardIds[0]!)
    .executeTakeFirstOrThrow();
  await db.updateTable('boards').set({ has_anonymous: 1 }).where('id', '=', board.id).execute();
  const cards = await db
    .selectFrom('cards')
    .innerJoin('board_cards', 'board_cards.card_id', 'cards.id')
    .select(['cards.id', 'cards.name'])
    .where('board_cards.board_id', '=', board.id)
    .orderBy('cards.name')
    .execute();
  const evaluatorId = seeded.evaluatorIds[0]!;
  const { token } = await insertSession(db, { id: evaluatorId, orgId: org.id }, now, 12 * 60 * 60_000);
  await database.close();
  return { org, board, card: cards[0]!, cookie: `${SESSION_COOKIE}=${token}` };
}

/** Debian's Chromium, headless, with a DevTools port of its choosing (read back from its stderr). */
async function startChromium(profile: string): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-extensions',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-sync',
      '--mute-audio',
      // Chromium refuses to run as root with its sandbox (the CI machine runs as root).
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium gave no DevTools port: ${seen}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ port: Number(match[1]), child });
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${seen}`)));
  });
}

function stopped(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

async function post(base: string, call: string, body: object, cookie?: string): Promise<unknown> {
  const answer = await fetch(`${base}${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${call} answered ${answer.status}: ${await answer.text()}`);
  return answer.json();
}

interface Row {
  route: string;
  runs: Result[];
  median: Result;
}

const score = (lhr: Result, category: 'performance' | 'accessibility') =>
  lhr.categories[category]?.score ?? 0;
const numeric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? NaN;

/** The page's own scripts as they travelled (transfer size), not the service worker's precache fetches. */
function scriptBytes(lhr: Result): number {
  const details = lhr.audits['network-requests']?.details as
    { items: { resourceType?: string; transferSize?: number; sessionTargetType?: string }[] } | undefined;
  return (details?.items ?? [])
    .filter((r) => r.resourceType === 'Script' && (r.sessionTargetType ?? 'page') === 'page')
    .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
}

/** The accessibility audits that failed in any run, each with the elements it names. */
function failingAccessibility(runs: Result[]): string[] {
  const failing = new Map<string, Set<string>>();
  for (const lhr of runs)
    for (const ref of lhr.categories.accessibility?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      const nodes = failing.get(`${audit.id}: ${audit.title}`) ?? new Set<string>();
      const items = (audit.details as { items?: { node?: { selector?: string; snippet?: string } }[] })
        ?.items;
      for (const item of items ?? [])
        if (item.node) nodes.add(`${item.node.selector ?? ''}  ${item.node.snippet?.slice(0, 160) ?? ''}`);
      failing.set(`${audit.id}: ${audit.title}`, nodes);
    }
  return [...failing].flatMap(([audit, nodes]) => [
    `  - ${audit}`,
    ...[...nodes].slice(0, 8).map((n) => `      ${n}`),
  ]);
}

/** The main thread's time by kind, and the script that took most of it (Lighthouse's bootup-time). */
function mainThread(lhr: Result): string {
  const kinds = (
    lhr.audits['mainthread-work-breakdown']?.details as
      { items?: { groupLabel?: string; duration?: number }[] } | undefined
  )?.items;
  const scripts = (
    lhr.audits['bootup-time']?.details as { items?: { url?: string; total?: number }[] } | undefined
  )?.items;
  const top = scripts?.[0];
  return [
    (kinds ?? [])
      .slice(0, 4)
      .map((k) => `${k.groupLabel} ${Math.round(k.duration ?? 0).toLocaleString('en')} ms`)
      .join(', '),
    top ? `most by ${top.url?.split('/').pop()} (${Math.round(top.total ?? 0).toLocaleString('en')} ms)` : '',
    `${lhr.audits['long-tasks']?.displayValue ?? ''}; Lighthouse's benchmark index of this machine ${Math.round(lhr.environment.benchmarkIndex)}`,
  ]
    .filter(Boolean)
    .join('; ');
}

/** The layout shifts of a run, with the element that moved most in each. */
function layoutShifts(lhr: Result): string[] {
  const items = (
    lhr.audits['layout-shifts']?.details as
      { items?: { score?: number; node?: { selector?: string; nodeLabel?: string } }[] } | undefined
  )?.items;
  return (items ?? []).map(
    (i) =>
      `  - ${(i.score ?? 0).toFixed(3)}: ${i.node?.selector ?? '?'} (${i.node?.nodeLabel?.split('\n')[0] ?? ''})`,
  );
}

async function main() {
  mkdirSync(resultsDir, { recursive: true });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'checkboard-lighthouse-'));
  const file = path.join(dir, 'lighthouse.sqlite');
  say(
    `Lighthouse (mobile preset), ${RUNS} runs a route; seeding ${EVALUATIONS.toLocaleString('en')} evaluations`,
  );
  const { org, board, card, cookie } = await seedDatabase(file);

  const server = await startDistServer(`sqlite:${file}`, PORT);
  const base = `http://localhost:${server.port}`;
  let browser: { port: number; child: ChildProcess } | undefined;
  const rows: Row[] = [];
  const loadBefore = load();
  try {
    // An evaluation started by the evaluator, and one started from the board's QR code.
    const { id: evalID } = (await post(
      base,
      '/api/add-evaluation',
      { boardID: board.id, cardID: card.id },
      cookie,
    )) as { id: number };
    const { key } = (await post(
      base,
      '/api/get-anonymous-evaluation-key',
      { boardID: board.id },
      cookie,
    )) as {
      key: string;
    };
    const anon = { orgName: org.name, boardID: board.id, anonKey: key };
    const { id: anonID } = (await post(base, '/api/add-evaluation-anon', { ...anon, cardID: card.id })) as {
      id: number;
    };
    const allRoutes: Route[] = [
      { route: 'board view', path: paths.board(org.name, board.name), ready: card.name },
      {
        route: 'evaluation page',
        path: paths.evaluation(org.name, board.name, board.id, card.name, card.id, evalID),
        ready: 'Step 2 of',
      },
      {
        route: 'anonymous evaluation page',
        path: paths.anonymousEvaluation(org.name, board.name, board.id, card.name, card.id, anonID, key),
        ready: 'Step 2 of',
      },
    ];
    const routes = allRoutes.filter(({ route }) => !ONLY || ONLY.includes(route));
    if (!routes.length) throw new Error(`BENCH_LIGHTHOUSE_ROUTES: none of ${ONLY?.join(', ')}`);

    browser = await startChromium(path.join(dir, 'profile'));
    // Sign in as the app does, in the browser's default context (where Lighthouse opens its tabs), and
    // check that every route draws; then let go of the browser.
    const playwright = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
    const context = playwright.contexts()[0]!;
    const [name, value] = cookie.split('=') as [string, string];
    const expires = Math.floor(Date.now() / 1000) + 12 * 60 * 60;
    await context.addCookies([
      { name, value, domain: 'localhost', path: '/', httpOnly: true, sameSite: 'Lax', expires },
      {
        name: 'session_expiry',
        value: String(Date.now() + 12 * 60 * 60_000),
        domain: 'localhost',
        path: '/',
        sameSite: 'Lax',
        expires,
      },
    ]);
    const page = await context.newPage();
    await page.goto(`${base}/version.txt`);
    await page.evaluate(() => window.localStorage.setItem('logged_in', 'true'));
    for (const { route, path: at, ready } of routes) {
      await page.goto(base + at);
      await page
        .getByText(ready)
        .first()
        .waitFor({ timeout: 60_000 })
        .catch(async (error: unknown) => {
          say(`${route}: ${page.url()} ${(await page.locator('body').innerText()).slice(0, 400)}`);
          throw error;
        });
    }
    await page.close();
    await playwright.close();

    for (const { route, path: at } of routes) {
      const runs: Result[] = [];
      let retries = 0;
      for (let run = 1; run <= RUNS; run++) {
        const result = await lighthouse(base + at, {
          port: browser.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          // Lighthouse's defaults and IndexedDB, where the app keeps the last data it read (decision 0730):
          // each run a first visit of a signed-in member (cookies and localStorage are kept).
          clearStorageTypes: [
            'file_systems',
            'shader_cache',
            'service_workers',
            'cache_storage',
            'indexeddb',
          ],
        });
        if (!result) throw new Error(`${route}: Lighthouse gave no result`);
        const lhr = result.lhr;
        // Lighthouse asks for a new run when its trace failed (NO_NAVSTART...): up to 3 such runs a route.
        if (lhr.runtimeError && retries < 3) {
          retries++;
          say(`  ${route}, run ${run}: ${lhr.runtimeError.code}, run again`);
          run--;
          continue;
        }
        if (lhr.runtimeError)
          throw new Error(`${route}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        // A page that sent the browser elsewhere (a sign-in) was not the page measured.
        if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(base + at).pathname)
          throw new Error(`${route}: ended on ${lhr.finalDisplayedUrl}`);
        for (const warning of lhr.runWarnings) say(`  ${route}, run ${run}: warning: ${String(warning)}`);
        const slug = route.replaceAll(' ', '-');
        writeFileSync(path.join(resultsDir, `lighthouse-${slug}-${run}.json`), JSON.stringify(lhr));
        say(
          `  ${route}, run ${run}: performance ${score(lhr, 'performance').toFixed(2)}, accessibility ${score(lhr, 'accessibility').toFixed(2)} (load ${load()[0]})`,
        );
        runs.push(lhr);
      }
      // Lighthouse's own advice: the run of median performance score stands for the page.
      const sorted = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
      rows.push({ route, runs, median: sorted[Math.floor((sorted.length - 1) / 2)]! });
    }
  } finally {
    // Chromium writes its profile until it has exited: wait for both before removing the folder.
    await Promise.all([stopped(browser?.child), stopped(server.child)]);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }

  const ms = (v: number) => `${Math.round(v).toLocaleString('en')} ms`;
  say(
    `\nLighthouse ${rows[0]?.median.lighthouseVersion}, mobile preset (simulated throttling), ${RUNS} runs a route, the median run by performance;` +
      ` ${EVALUATIONS.toLocaleString('en')} evaluations; load average ${loadBefore.join(' ')} before, ${load().join(' ')} after`,
  );
  say(
    '| route | performance (all runs) | accessibility | FCP | LCP | TBT | CLS | JS transferred | target (≥ 0.95, 1.00) |',
  );
  say('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const { route, runs, median } of rows) {
    const met =
      score(median, 'performance') >= TARGET.performance &&
      score(median, 'accessibility') >= TARGET.accessibility;
    say(
      `| ${route} | ${score(median, 'performance').toFixed(2)} (${runs.map((r) => score(r, 'performance').toFixed(2)).join(', ')}) | ${score(median, 'accessibility').toFixed(2)} | ` +
        `${ms(numeric(median, 'first-contentful-paint'))} | ${ms(numeric(median, 'largest-contentful-paint'))} | ` +
        `${ms(numeric(median, 'total-blocking-time'))} | ${numeric(median, 'cumulative-layout-shift').toFixed(3)} | ` +
        `${(scriptBytes(median) / 1024).toFixed(1)} KB | ${met ? 'met' : 'not met'} |`,
    );
  }
  for (const { route, runs, median } of rows) {
    const failing = failingAccessibility(runs);
    if (failing.length) say(`\nAccessibility audits failing on the ${route}:\n${failing.join('\n')}`);
    say(
      `\nWhere the ${route}'s main thread went (median run, simulated 4x slower CPU): ${mainThread(median)}`,
    );
    const shifts = layoutShifts(median);
    if (shifts.length) say(`\nLayout shifts on the ${route} (median run):\n${shifts.join('\n')}`);
  }
}

await main();
