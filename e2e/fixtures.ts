/**
 * What every journey shares: the accessibility check, seeding straight into the server's database, the
 * caught mail, and signing a seeded user in.
 */
import { expect, test as base, type Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { openDatabase, type Database } from '../server/db/index.ts';
import type { ReceivedMail } from '../server/test/smtp.ts';
import * as factories from '../server/test/factories.ts';

export { expect };

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * No serious or critical axe violations on the page as it is now. axe-core runs in the page itself, put in
 * once per document (the app navigates without reloading, so one page load serves all its checks); the app
 * has no frames, so nothing of @axe-core/playwright's frame-by-frame run, with its extra blank page per
 * check, is needed (docs/decisions/0742).
 */
export async function expectAccessible(page: Page, label = page.url()) {
  // Colours are only final once opening dialogs and menus have finished their transitions (Mantine's
  // last 200 ms; give one that was just triggered time to start, then wait for all to end).
  await page.waitForTimeout(50);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as {
      axe: { run(context: Document, options: RunOptions): Promise<AxeResults> };
    };
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, AXE_TAGS);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = serious.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.targets.join('\n  ')}`);
  expect(summary, `accessibility violations on ${label}`).toEqual([]);
}

export interface Seeder {
  db: Database['db'];
  clock: { now(): number };
  team: typeof factories.buildTeam extends (env: never, ...rest: infer R) => infer T
    ? (...rest: R) => T
    : never;
}

let database: Database | undefined;
function seedDatabase(): Database {
  database ??= openDatabase({ kind: 'sqlite', file: process.env.E2E_DATABASE_FILE! });
  return database;
}

/** Factories bound to the running server's database (SQLite in WAL mode takes a second writer). */
export function seed() {
  const env = { db: seedDatabase().db, clock: { now: () => Date.now() } } as Parameters<
    typeof factories.buildOrg
  >[0];
  return {
    env,
    org: (o?: Parameters<typeof factories.buildOrg>[1]) => factories.buildOrg(env, o),
    user: (org: factories.TestOrg, o?: Parameters<typeof factories.buildUser>[2]) =>
      factories.buildUser(env, org, o),
    team: (o?: Parameters<typeof factories.buildTeam>[1]) => factories.buildTeam(env, o),
    board: (org: factories.TestOrg, o?: Parameters<typeof factories.buildBoard>[2]) =>
      factories.buildBoard(env, org, o),
    card: (org: factories.TestOrg, o?: Parameters<typeof factories.buildCard>[2]) =>
      factories.buildCard(env, org, o),
  };
}

/** Mail the server sent to an address, newest last. */
export function mailTo(address: string): ReceivedMail[] {
  const dir = process.env.E2E_MAIL_DIR!;
  return readdirSync(dir)
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as ReceivedMail)
    .filter((mail) => mail.to === address.toLowerCase());
}

/** Waits for a mail to the address and returns its first link containing `pathPart`. */
export async function linkFromMail(address: string, pathPart: string, count = 1): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mails = mailTo(address);
        if (mails.length < count) return undefined;
        link = mails
          .at(-1)!
          .text.match(/https?:\/\/\S+/g)
          ?.find((l) => l.includes(pathPart));
        return link;
      },
      { message: `a mail to ${address} with a link to ${pathPart}` },
    )
    .toBeTruthy();
  return link!;
}

/** Signs a seeded user in the way the browser would be after /login: the cookies and the logged_in flag. */
export async function signInAs(page: Page, cookie: string) {
  const [name, value] = cookie.split('=') as [string, string];
  const url = new URL(test.info().project.use.baseURL!);
  const expiry = Date.now() + 30 * 60_000;
  await page.context().addCookies([
    { name, value, domain: url.hostname, path: '/', httpOnly: true, sameSite: 'Lax' },
    { name: 'session_expiry', value: String(expiry), domain: url.hostname, path: '/', sameSite: 'Lax' },
  ]);
  await page.addInitScript(() => {
    if (!window.sessionStorage.getItem('e2e-signed-in')) {
      window.localStorage.setItem('logged_in', 'true');
      window.sessionStorage.setItem('e2e-signed-in', '1');
    }
  });
}

export const test = base;

/** Evaluations and feedback written straight into the server's database (issue 5's journeys). */
export function seedEvaluations() {
  const { env } = seed();
  return {
    evaluation: (org: factories.TestOrg, o: Parameters<typeof factories.buildEvaluation>[2]) =>
      factories.buildEvaluation(env, org, o),
    feedback: (org: factories.TestOrg, o: Parameters<typeof factories.buildFeedback>[2]) =>
      factories.buildFeedback(env, org, o),
  };
}
