/**
 * Schedule compliance as a saved dashboard graph (issue 13, decision 0704), at desktop and phone sizes: an
 * administrator adds a compliance graph per board and one per card of a board to a dashboard; after a
 * reload both are still there, drawn from get-schedule-compliance with the same figures (and its CSV),
 * light and dark, checked with axe.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, seed, seedEvaluations, signInAs, test } from './fixtures.ts';

const DAY = 86_400_000;
const suffix = () => Math.random().toString(36).slice(2, 7);
/** YYYY-MM-DD, `days` from today in UTC (the seeded organisation's zone, and the browser's here). */
const utcDay = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

test.use({ timezoneId: 'UTC' });

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page
    .getByRole('listbox', { name: label, exact: true })
    .getByRole('option', { name: option, exact: true })
    .click();
  await expect(page.getByRole('combobox', { name: label, exact: true })).toHaveValue(option);
}

test('an administrator adds schedule compliance graphs to a dashboard; after a reload they show the same figures', async ({
  page,
}) => {
  test.setTimeout(120_000);
  test.skip(new Date().getUTCHours() === 23 && new Date().getUTCMinutes() >= 55, 'too close to midnight UTC');
  const s = seed();
  const team = await s.team();
  const fridge = await s.card(team.org, { name: `Fridge log ${suffix()}` });
  const floor = await s.card(team.org, { name: `Floor check ${suffix()}` });
  const kitchen = await s.board(team.org, { name: `Kitchen ${suffix()}`, cardIds: [fridge.id] });
  const store = await s.board(team.org, { name: `Store ${suffix()}`, cardIds: [floor.id] });
  await signInAs(page, team.admin.cookie);

  // Daily checks for the last three whole days: the kitchen's was done on the middle one, the store's never.
  for (const [board, card] of [
    [kitchen, fridge],
    [store, floor],
  ] as const) {
    // As the web client does: a 503 (SQLite busy with another journey's seeding) is retried, same key.
    const headers = { 'Idempotency-Key': `schedule-${board.id}` };
    const data = { boardID: board.id, cardID: card.id, rule: 'FREQ=DAILY', startDate: utcDay(-3) };
    let added = await page.request.post('/api/add-schedule', { data, headers });
    for (let retry = 0; retry < 3 && added.status() === 503; retry++) {
      await page.waitForTimeout(300 * 2 ** retry);
      added = await page.request.post('/api/add-schedule', { data, headers });
    }
    expect(added.status(), await added.text()).toBe(200);
  }
  const noon = new Date(`${utcDay(-2)}T12:00:00Z`).getTime();
  await seedEvaluations().evaluation(team.org, {
    board: kitchen,
    card: fridge,
    user: team.evaluator,
    completedAt: noon,
  });

  await page.goto(`/q/${encodeURIComponent(team.org.name)}/analytics`);
  await page.getByRole('button', { name: 'Create a dashboard' }).click();
  const naming = page.getByRole('dialog', { name: 'New dashboard' });
  await naming.getByLabel('Name').fill('Compliance');
  await naming.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('tab', { name: /Compliance/, selected: true })).toBeVisible();

  // Per board, as bars with the figures under them.
  await page.getByRole('button', { name: 'Add graph' }).click();
  const editor = page.getByRole('dialog', { name: 'Add graph' });
  await editor.getByText('Schedule compliance', { exact: true }).click();
  await expect(editor.getByRole('radio', { name: 'Schedule compliance' })).toBeChecked();
  await expect(editor.getByText(/^Scheduled checks done on time, of those due/)).toBeVisible();
  // Compliance compares boards or cards over the whole period: no card, item, division or line.
  await expect(editor.getByRole('combobox', { name: 'Card' })).toHaveCount(0);
  await expect(editor.getByRole('combobox', { name: 'Time division' })).toHaveCount(0);
  await expect(editor.getByRole('radio', { name: 'Line' })).toHaveCount(0);
  await expect(editor.getByRole('radio', { name: 'Bar' })).toBeChecked();
  // At most a year back.
  await editor.getByRole('textbox', { name: 'Start: how many' }).fill('400');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByRole('alert')).toHaveText(
    'A schedule compliance graph can reach back at most 365 days, 51 weeks, 11 months or 3 quarters.',
  );
  await expectAccessible(page, 'graph editor, compliance, period too long');
  await editor.getByRole('textbox', { name: 'Start: how many' }).fill('30');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();

  // Per card of the kitchen, as a table.
  await page.getByRole('button', { name: 'Add graph' }).click();
  await editor.getByText('Schedule compliance', { exact: true }).click();
  await pick(page, 'Board', kitchen.name);
  await editor.getByText('Table', { exact: true }).click();
  await expectAccessible(page, 'graph editor, compliance by card');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();

  const expectFigures = async (when: string) => {
    const graphs = page.getByTestId('graph');
    await expect(graphs, when).toHaveCount(2);
    const byBoard = page.getByRole('region', { name: 'Schedule compliance · All boards' });
    await expect(byBoard.getByText('30 days ago – Now, whole period')).toBeVisible();
    await expect(byBoard.getByTestId('compliance-chart')).toBeVisible();
    await expect(byBoard.locator('.recharts-bar-rectangle')).toHaveCount(2);
    const table = byBoard.getByTestId('compliance-graph-table');
    await expect(table.getByRole('row', { name: kitchen.name }).getByRole('cell')).toHaveText([
      '1',
      '0',
      '2',
      '33.3%',
    ]);
    await expect(table.getByRole('row', { name: store.name }).getByRole('cell')).toHaveText([
      '0',
      '0',
      '3',
      '0%',
    ]);
    await expect(table.getByRole('row', { name: /^All / }).getByRole('cell')).toHaveText([
      '1',
      '0',
      '5',
      '16.7%',
    ]);
    const byCard = page.getByRole('region', { name: `Schedule compliance · ${kitchen.name} by card` });
    await expect(byCard.getByTestId('compliance-chart')).toHaveCount(0);
    const cards = byCard.getByTestId('compliance-graph-table');
    await expect(cards.getByRole('row')).toHaveCount(3);
    await expect(cards.getByRole('row', { name: fridge.name }).getByRole('cell')).toHaveText([
      '1',
      '0',
      '2',
      '33.3%',
    ]);
  };
  await expectFigures('as added');
  await expectAccessible(page, 'dashboard with compliance graphs');

  await page.reload();
  await expect(page.getByRole('tab', { name: /Compliance/, selected: true })).toBeVisible();
  await expectFigures('after a reload');
  await expectAccessible(page, 'dashboard with compliance graphs, reloaded');

  // Its figures as a CSV, the whole last.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV of graph 1, Schedule compliance · All boards' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    /^Checkboard-Schedule compliance · All boards-\d{8}-\d{6}\.csv$/,
  );
  const csv = (await readFile(await download.path())).toString('utf8').slice(1).split('\r\n');
  expect(csv).toEqual([
    'Board,ID,Done on time,Late,Missed,Compliance (%)',
    `${kitchen.name},${kitchen.id},1,0,2,33.3`,
    `${store.name},${store.id},0,0,3,0`,
    'All,,1,0,5,16.7',
    '',
  ]);

  // Editing keeps it a compliance graph, with what it compares.
  await page
    .getByRole('button', { name: `Edit graph 2, Schedule compliance · ${kitchen.name} by card` })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit graph' });
  await expect(edit.getByRole('radio', { name: 'Schedule compliance' })).toBeChecked();
  await expect(edit.getByRole('combobox', { name: 'Board', exact: true })).toHaveValue(kitchen.name);
  await expect(edit.getByRole('radio', { name: 'Table' })).toBeChecked();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();

  // And in dark mode the graphs read as well.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expectFigures('in dark mode');
  await expectAccessible(page, 'dashboard with compliance graphs, dark');
});
