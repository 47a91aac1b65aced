/**
 * `npm run bench:page-weight` (bench/README.md): the JavaScript a phone loads for the pages an inspector
 * uses, measured by loading each route in Chromium against the built server (`npm run build` first), as
 * issue 15 asks: every script the page fetched (Resource Timing, after the route has drawn), then each
 * fetched again as gzip and as brotli to sum what travels. Target: <= 200 KB gzip for the board view and
 * the evaluation page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { openDatabase } from '../server/db/index.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { buildBoard, buildCard, buildTeam } from '../server/test/factories.ts';
import { FakeClock } from '../server/clock.ts';
import { paths } from '../web/lib/paths.ts';
import { startDistServer } from './distServer.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGET_KB = 200;

async function encodedSize(url: string, encoding: 'gzip' | 'br'): Promise<number> {
  const answer = await fetch(url, { headers: { 'Accept-Encoding': encoding } });
  const served = answer.headers.get('content-encoding');
  // A file too small to shrink has no compressed copy (decision 0622): it travels as it is.
  if (served === null) return (await answer.arrayBuffer()).byteLength;
  if (served !== encoding) throw new Error(`${url} was not served as ${encoding} (got ${served})`);
  // fetch decodes the body; the stored file's size is what travelled.
  const stored = await fetch(`${url}.${encoding === 'gzip' ? 'gz' : 'br'}`, {
    headers: { 'Accept-Encoding': 'identity' },
  });
  if (stored.ok) return (await stored.arrayBuffer()).byteLength;
  return Number(answer.headers.get('content-length') ?? 0);
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'checkboard-weight-'));
  const file = path.join(dir, 'weight.sqlite');
  const database = openDatabase({ kind: 'sqlite', file });
  await migrateToLatest(database.db, 'sqlite');
  const env = { db: database.db, clock: new FakeClock(Date.now()) } as unknown as Parameters<
    typeof buildTeam
  >[0];
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org, {
    items: [
      { type: 'instruction', content: '<p>Check the line</p>' },
      { type: 'pass_fail', content: '<p>Guard on</p>' },
      { type: 'text', content: '<p>Notes</p>' },
    ],
  });
  const board = await buildBoard(env, team.org, { cardIds: [card.id], hasAnonymous: true });
  await database.close();

  const { port, child } = await startDistServer(`sqlite:${file}`);
  const base = `http://localhost:${port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const rows: { route: string; scripts: number; raw: number; gzip: number; br: number }[] = [];
  try {
    const [name, value] = team.evaluator.cookie.split('=') as [string, string];
    const routes: { route: string; url: () => Promise<string>; ready: string }[] = [
      { route: 'board view', url: async () => paths.board(team.org.name, board.name), ready: card.name },
      {
        route: 'evaluation page',
        url: async () => {
          const started = await fetch(`${base}/api/add-evaluation`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: team.evaluator.cookie },
            body: JSON.stringify({ boardID: board.id, cardID: card.id }),
          });
          const { id } = (await started.json()) as { id: number };
          return paths.evaluation(team.org.name, board.name, board.id, card.name, card.id, id);
        },
        ready: 'Guard on',
      },
    ];
    for (const { route, url, ready } of routes) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      // Signed in as the app signs in: the session cookie, its expiry for the client, the logged-in flag.
      await context.addCookies([
        { name, value, url: base, httpOnly: true, sameSite: 'Lax' },
        { name: 'session_expiry', value: String(Date.now() + 30 * 60_000), url: base, sameSite: 'Lax' },
      ]);
      await context.addInitScript(() => window.localStorage.setItem('logged_in', 'true'));
      const page = await context.newPage();
      await page.goto(base + (await url()));
      await page
        .getByText(ready)
        .first()
        .waitFor({ timeout: 60_000 })
        .catch(async (error: unknown) => {
          console.log(page.url(), (await page.locator('body').innerText()).slice(0, 400));
          throw error;
        });
      await page.waitForLoadState('networkidle');
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter(
            (e) => (e as PerformanceResourceTiming).initiatorType === 'script' || e.name.endsWith('.js'),
          )
          .map((e) => e.name),
      );
      let raw = 0;
      let gzip = 0;
      let br = 0;
      for (const script of new Set(scripts)) {
        raw += (await (await fetch(script, { headers: { 'Accept-Encoding': 'identity' } })).arrayBuffer())
          .byteLength;
        gzip += await encodedSize(script, 'gzip');
        br += await encodedSize(script, 'br');
      }
      rows.push({ route, scripts: new Set(scripts).size, raw, gzip, br });
      await context.close();
    }
  } finally {
    await browser.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`\nJavaScript a phone loads per route (load average ${os.loadavg()[0]!.toFixed(1)})`);
  console.log('| route | scripts | uncompressed | gzip | brotli | target (gzip) |');
  console.log('| ----- | ------- | ------------ | ---- | ------ | ------------- |');
  for (const r of rows)
    console.log(
      `| ${r.route} | ${r.scripts} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.br)} | ${r.gzip / 1024 <= TARGET_KB ? 'met' : 'not met'} (<= ${TARGET_KB} KB) |`,
    );
}

await main();
