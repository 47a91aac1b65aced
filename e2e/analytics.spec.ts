/**
 * Issue 9's journeys: an administrator builds dashboards of graphs at /q/{org}/analytics, finds them after a
 * reload, chooses the default, reorders, downloads a graph's figures as CSV and opens the wall screen; the
 * roles without analytics never see it; empty, failing and dark screens; every state checked with axe.
 */
import { TZDate } from '@date-fns/tz';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, seed, seedEvaluations, signInAs, test } from './fixtures.ts';

const DAY = 24 * 60 * 60_000;
const ZONE = 'America/New_York';
const suffix = () => Math.random().toString(36).slice(2, 7);
const proxyError = { status: 500, contentType: 'text/plain', body: 'proxy error' };

type Team = Awaited<ReturnType<ReturnType<typeof seed>['team']>>;

// Buckets are the browser's local days: the journeys run in a zone behind UTC.
test.use({ timezoneId: ZONE });

/** YYYY-MM-DD of an instant in the journeys' zone (the report's day labels). */
const localDay = (ms: number) => {
  const d = new TZDate(ms, ZONE);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** A board with the default card (instruction, 'Guards in place', 'Floor is dry' with N/A). */
async function seedBoard(team: Team) {
  const s = seed();
  const card = await s.card(team.org, { name: `Start-up ${suffix()}` });
  const board = await s.board(team.org, { name: `Packing ${suffix()}`, cardIds: [card.id] });
  return { card, board };
}

/** Evaluations at noon (local) `daysAgo` days before today, passing or failing 'Guards in place'. */
async function seedEvaluationsOn(
  team: Team,
  { card, board }: Awaited<ReturnType<typeof seedBoard>>,
  days: { daysAgo: number; pass: boolean }[],
) {
  const today = new TZDate(Date.now(), ZONE);
  today.setHours(12, 0, 0, 0);
  for (const { daysAgo, pass } of days) {
    const completedAt = today.getTime() - daysAgo * DAY;
    await seedEvaluations().evaluation(team.org, {
      board,
      card,
      user: team.evaluator,
      completedAt,
      pass,
      results: [
        {
          item_id: card.itemIds[0]!,
          item_type: 'instruction',
          position: 0,
          content: '<p>Check the line is clear.</p>',
        },
        {
          item_id: card.itemIds[1]!,
          item_type: 'pass_fail',
          position: 1,
          content: '<p>Guards in place</p>',
          pass,
        },
        {
          item_id: card.itemIds[2]!,
          item_type: 'pass_fail',
          position: 2,
          content: '<p>Floor is dry</p>',
          na: true,
        },
      ],
    });
  }
  return today.getTime();
}

const analyticsPath = (team: Team) => `/q/${encodeURIComponent(team.org.name)}/analytics`;

async function openMenu(page: Page) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
}

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  // The option of this field's list: the compliance panel (decision 0703) lists the same boards.
  await page
    .getByRole('listbox', { name: label, exact: true })
    .getByRole('option', { name: option, exact: true })
    .click();
  await expect(page.getByRole('combobox', { name: label, exact: true })).toHaveValue(option);
}

async function newDashboard(page: Page, name: string) {
  await page.getByRole('button', { name: 'New dashboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'New dashboard' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('tab', { name, selected: true })).toBeVisible();
}

function graphs(page: Page) {
  return page.getByTestId('graph');
}

async function downloadCsv(page: Page, graph: Locator) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    graph.getByRole('button', { name: /^Download CSV of / }).click(),
  ]);
  const text = (await readFile(await download.path())).toString('utf8');
  // A byte-order mark first, so spreadsheet programs read the names as UTF-8.
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const rows = text
    .slice(1)
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));
  return { name: download.suggestedFilename(), rows };
}

test('an administrator builds a dashboard of a board’s daily pass rate and a table by item, finds it after a reload, sets another as default and downloads a CSV', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const team = await seed().team();
  const seeded = await seedBoard(team);
  const noon = await seedEvaluationsOn(team, seeded, [
    { daysAgo: 1, pass: true },
    { daysAgo: 1, pass: true },
    { daysAgo: 2, pass: true },
    { daysAgo: 2, pass: false },
    { daysAgo: 3, pass: false },
  ]);
  const { board, card } = seeded;
  await signInAs(page, team.admin.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);

  // The menu leads there; a first visit shows how to start.
  await openMenu(page);
  await page.getByRole('menuitem', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  await expect(page.getByText('You have no dashboards yet.')).toBeVisible();
  await expectAccessible(page, 'analytics, no dashboards');

  // A dashboard: the name follows the 1-30 rule.
  await page.getByRole('button', { name: 'Create a dashboard' }).click();
  const naming = page.getByRole('dialog', { name: 'New dashboard' });
  await naming.getByLabel('Name').fill('A name far longer than thirty characters');
  await naming.getByRole('button', { name: 'Submit' }).click();
  await expect(naming.getByText('Name must be between 1 and 30 characters long.')).toBeVisible();
  await expectAccessible(page, 'new dashboard, name too long');
  await naming.getByLabel('Name').fill('Line checks');
  await naming.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('tab', { name: /Line checks/, selected: true })).toBeVisible();
  await expect(page.getByText('This dashboard has no graphs yet.')).toBeVisible();
  await expectAccessible(page, 'empty dashboard');

  // A line graph of the board's pass rate, day by day over the last week.
  await page.getByRole('button', { name: 'Add graph' }).click();
  const editor = page.getByRole('dialog', { name: 'Add graph' });
  await expect(editor.getByRole('combobox', { name: 'Board', exact: true })).toHaveValue('All boards');
  await expect(editor.getByRole('combobox', { name: 'Item' })).toBeDisabled();
  await pick(page, 'Board', board.name);
  await editor.getByRole('textbox', { name: 'Start: how many' }).fill('7');
  await expect(editor.getByRole('checkbox', { name: 'Now' }).nth(1)).toBeChecked();
  await expect(editor.getByRole('combobox', { name: 'Time division' })).toHaveValue('Days');
  await expect(editor.getByRole('radio', { name: 'Line' })).toBeChecked();
  await expectAccessible(page, 'graph editor');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  const line = graphs(page).first();
  await expect(line.getByRole('heading', { name: `${board.name} · All cards` })).toBeVisible();
  await expect(line.getByText('7 days ago – Now, by day')).toBeVisible();
  await expect(line.getByTestId('line-chart')).toBeVisible();
  await expect(line.locator('.recharts-line')).toHaveCount(1);
  await expect(line.getByText('Pass rate', { exact: true })).toBeVisible();
  await expectAccessible(page, 'dashboard with a line graph');

  // A table of the card's items over the whole period.
  await page.getByRole('button', { name: 'Add graph' }).click();
  await pick(page, 'Board', board.name);
  await pick(page, 'Card', card.name);
  await pick(page, 'Time division', 'Custom Interval');
  await expect(editor.getByText('One bar per item of the card over the whole period.')).toBeVisible();
  await editor.getByText('Table', { exact: true }).click();
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  await expect(graphs(page)).toHaveCount(2);
  const table = graphs(page).nth(1).getByTestId('report-table');
  const guards = table.getByRole('row').filter({ hasText: 'Guards in place' });
  await expect(guards.getByRole('cell')).toHaveText(['3', '2', '0', '60%']);
  const floor = table.getByRole('row').filter({ hasText: 'Floor is dry' });
  await expect(floor.getByRole('cell')).toHaveText(['0', '0', '5', '–']);
  await expectAccessible(page, 'dashboard with a line graph and a table');

  // After a reload the dashboard and its graphs are where they were.
  await page.reload();
  await expect(page.getByRole('tab', { name: /Line checks/, selected: true })).toBeVisible();
  await expect(graphs(page)).toHaveCount(2);
  await expect(graphs(page).first().getByTestId('line-chart')).toBeVisible();
  await expect(graphs(page).nth(1).getByTestId('report-table')).toBeVisible();

  // The line graph's figures as CSV: one row per local day, the empty ones included.
  const csv = await downloadCsv(page, graphs(page).first());
  expect(csv.name).toMatch(/^Checkboard-.+\.csv$/);
  expect(csv.rows[0]).toEqual(['Period', 'Start', 'Passed', 'Failed', 'Pass rate (%)']);
  const byDay = new Map(csv.rows.slice(1).map((r) => [r[0], r]));
  expect(byDay.get(localDay(noon - DAY))?.slice(2)).toEqual(['2', '0', '100']);
  expect(byDay.get(localDay(noon - 2 * DAY))?.slice(2)).toEqual(['1', '1', '50']);
  expect(byDay.get(localDay(noon - 3 * DAY))?.slice(2)).toEqual(['0', '1', '0']);
  expect(byDay.get(localDay(noon - 4 * DAY))?.slice(2)).toEqual(['0', '0', '']);
  expect(csv.rows.length - 1).toBeGreaterThanOrEqual(7);

  // Reorder by keyboard: the table comes first, and stays first after a reload.
  await graphs(page)
    .nth(1)
    .getByRole('button', { name: /^Move graph 2, .* earlier$/ })
    .click();
  await expect(graphs(page).first().getByTestId('report-table')).toBeVisible();
  await page.reload();
  await expect(graphs(page).first().getByTestId('report-table')).toBeVisible();
  await expect(graphs(page).nth(1).getByTestId('line-chart')).toBeVisible();

  // A second dashboard becomes the default: it is the first tab, and opens first.
  await newDashboard(page, 'Weekly');
  await expect(page.getByRole('tab', { name: /Line checks.*Default/ })).toBeVisible();
  await page.getByRole('button', { name: 'Set as default' }).click();
  await expect(page.getByRole('tab').first()).toHaveText(/Weekly.*Default/);
  await expect(page.getByRole('button', { name: 'Set as default' })).toBeHidden();
  await page.goto(analyticsPath(team));
  await expect(page.getByRole('tab', { name: /Weekly/, selected: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: /Line checks/ })).not.toHaveText(/Default/);

  // Rename, then delete with its confirmation.
  await page.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename dashboard' });
  await rename.getByLabel('New Name').fill('Weekly review');
  await rename.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('tab', { name: /Weekly review/, selected: true })).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Weekly review' });
  await expect(confirm.getByText('another dashboard becomes the default')).toBeVisible();
  await expectAccessible(page, 'delete dashboard confirmation');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('tab')).toHaveCount(1);
  await expect(page.getByRole('tab', { name: /Line checks.*Default/, selected: true })).toBeVisible();
});

test('the wall screen shows the dashboard full screen without controls, and leaves with Exit', async ({
  page,
}) => {
  const team = await seed().team();
  const seeded = await seedBoard(team);
  await seedEvaluationsOn(team, seeded, [{ daysAgo: 1, pass: true }]);
  await signInAs(page, team.admin.cookie);
  await page.goto(analyticsPath(team));
  await newDashboard(page, 'Shop floor');
  await page.getByRole('button', { name: 'Add graph' }).click();
  await pick(page, 'Board', seeded.board.name);
  await page.getByRole('dialog', { name: 'Add graph' }).getByText('Bar', { exact: true }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(graphs(page).getByTestId('bar-chart')).toBeVisible();

  await page.getByRole('button', { name: 'Wall screen' }).click();
  const wall = page.getByRole('dialog', { name: 'Shop floor, wall screen' });
  await expect(wall.getByRole('heading', { level: 1, name: 'Shop floor' })).toBeVisible();
  await expect(wall.getByTestId('bar-chart')).toBeVisible();
  await expect(wall.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  await expect(page).toHaveURL(/wall=1/);
  await expectAccessible(page, 'wall screen');
  // A screen on the wall opens the address itself.
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'Shop floor, wall screen' })).toBeVisible();
  await page.getByRole('button', { name: 'Exit wall screen' }).click();
  await expect(page.getByRole('button', { name: 'Add graph' })).toBeVisible();
  await expect(page).not.toHaveURL(/wall=1/);
});

test('a graph of a period without evaluations says so, and a graph of a deleted board still names it', async ({
  page,
}) => {
  const team = await seed().team();
  const seeded = await seedBoard(team);
  await signInAs(page, team.admin.cookie);
  await page.goto(analyticsPath(team));
  await newDashboard(page, 'Quiet');
  await page.getByRole('button', { name: 'Add graph' }).click();
  await pick(page, 'Board', seeded.board.name);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(graphs(page).getByText('No evaluations in this period')).toBeVisible();
  await expectAccessible(page, 'graph without evaluations');

  // The board is deleted: the graph keeps its name, marked as deleted, and so does the picker.
  await seed()
    .env.db.updateTable('boards')
    .set({ deleted_at: Date.now() })
    .where('id', '=', seeded.board.id)
    .execute();
  await page.reload();
  await expect(
    graphs(page).getByRole('heading', { name: `${seeded.board.name} (deleted) · All cards` }),
  ).toBeVisible();
  await graphs(page)
    .getByRole('button', { name: /^Edit / })
    .click();
  await expect(page.getByRole('combobox', { name: 'Board', exact: true })).toHaveValue(
    `${seeded.board.name} (deleted)`,
  );
});

test('failed calls show SPEC’s messages and nothing changes', async ({ page }) => {
  const team = await seed().team();
  const seeded = await seedBoard(team);
  await signInAs(page, team.admin.cookie);
  await page.goto(analyticsPath(team));

  await page.route('**/api/add-dashboard', (route) => route.fulfill(proxyError), { times: 1 });
  await page.getByRole('button', { name: 'Create a dashboard' }).click();
  const naming = page.getByRole('dialog', { name: 'New dashboard' });
  await naming.getByLabel('Name').fill('First');
  await naming.getByRole('button', { name: 'Submit' }).click();
  await expect(naming.getByText('Could not add dashboard. Please try again later.')).toBeVisible();
  await expectAccessible(page, 'add dashboard failed');
  await naming.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('tab', { name: /First/, selected: true })).toBeVisible();
  await newDashboard(page, 'Second');

  await page.route('**/api/set-default-dashboard', (route) => route.fulfill(proxyError), { times: 1 });
  await page.getByRole('button', { name: 'Set as default' }).click();
  await expect(page.getByText('Could not set default dashboard. Please try again later.')).toBeVisible();
  await expect(page.getByRole('tab').first()).toHaveText(/First.*Default/);

  await page.route('**/api/edit-dashboard', (route) => route.fulfill(proxyError), { times: 1 });
  await page.getByRole('button', { name: 'Add graph' }).click();
  const editor = page.getByRole('dialog', { name: 'Add graph' });
  await pick(page, 'Board', seeded.board.name);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByText('Could not edit dashboard. Please try again later.')).toBeVisible();
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('This dashboard has no graphs yet.')).toBeVisible();

  // A period beyond its unit's limit is refused before anything is sent.
  await page.getByRole('button', { name: 'Add graph' }).click();
  await editor.getByRole('textbox', { name: 'Start: how many' }).fill('800');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByText('A period can reach back at most 730 days.')).toBeVisible();
  await editor.getByRole('textbox', { name: 'Start: how many' }).fill('30');

  // A report that cannot be had: its message and a way to try again.
  await page.route('**/api/get-report', (route) => route.fulfill(proxyError), { times: 1 });
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(
    graphs(page).getByText('Unable to get result from server. Please try again later.'),
  ).toBeVisible();
  await expectAccessible(page, 'report failed');
  await graphs(page).getByRole('button', { name: 'Try again' }).click();
  await expect(graphs(page).getByText('No evaluations in this period')).toBeVisible();

  await page.route('**/api/delete-dashboard', (route) => route.fulfill(proxyError), { times: 1 });
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Second' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm.getByText('Could not delete dashboard. Please try again later.')).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('tab')).toHaveCount(2);
});

for (const role of ['viewer', 'evaluator'] as const) {
  test(`a ${role} never sees Analytics, and its address is not found`, async ({ page }) => {
    const team = await seed().team();
    await signInAs(page, team[role].cookie);
    await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
    await openMenu(page);
    await expect(page.getByRole('menuitem', { name: 'Home' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Analytics' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto(analyticsPath(team));
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New dashboard' })).toHaveCount(0);
    await expectAccessible(page, `analytics as ${role}`);
  });
}

test.describe('in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('the dashboard, its graphs and the editor read well in dark mode', async ({ page }) => {
    const team = await seed().team();
    const seeded = await seedBoard(team);
    await seedEvaluationsOn(team, seeded, [
      { daysAgo: 1, pass: true },
      { daysAgo: 2, pass: false },
    ]);
    await signInAs(page, team.admin.cookie);
    await page.goto(analyticsPath(team));
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await newDashboard(page, 'Night shift');
    for (const type of ['Line', 'Bar', 'Table'] as const) {
      await page.getByRole('button', { name: 'Add graph' }).click();
      await pick(page, 'Board', seeded.board.name);
      await page.getByRole('dialog', { name: 'Add graph' }).getByText(type, { exact: true }).click();
      if (type === 'Table') await expectAccessible(page, 'graph editor, dark');
      await page.getByRole('button', { name: 'Save' }).click();
    }
    await expect(graphs(page)).toHaveCount(3);
    await expect(page.getByTestId('line-chart')).toBeVisible();
    await expect(page.getByTestId('bar-chart')).toBeVisible();
    await expect(page.getByTestId('report-table')).toBeVisible();
    await expectAccessible(page, 'dashboard, dark');
  });
});
