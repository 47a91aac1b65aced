/**
 * Issue 5's journeys: running a card, the board view's three views, feedback, and the Evaluations and
 * Feedback tabs with their search, 'load more' and Excel download.
 */
import { TZDate } from '@date-fns/tz';
import { addDays, endOfWeek, format, getDaysInMonth, startOfDay } from 'date-fns';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, seed, seedEvaluations, signInAs, test } from './fixtures.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const suffix = () => Math.random().toString(36).slice(2, 7);

type Team = Awaited<ReturnType<ReturnType<typeof seed>['team']>>;
type SeededCard = { id: number; name: string; itemIds: number[] };
type Member = { id: number; email: string };

/** The result snapshots of a card made with the default items (instruction, two Pass/Fail checks). */
function defaultResults(card: SeededCard, pass: boolean) {
  return [
    {
      item_id: card.itemIds[0]!,
      item_type: 'instruction' as const,
      position: 0,
      content: '<p>Check the line is clear.</p>',
    },
    {
      item_id: card.itemIds[1]!,
      item_type: 'pass_fail' as const,
      position: 1,
      content: '<p>Guards in place</p>',
      pass,
    },
    {
      item_id: card.itemIds[2]!,
      item_type: 'pass_fail' as const,
      position: 2,
      content: '<p>Floor is dry</p>',
      na: true,
    },
  ];
}

async function evaluate(
  team: Team,
  board: { id: number; name: string },
  card: SeededCard,
  user: Member | null,
  completedAt: number,
  pass = true,
) {
  return seedEvaluations().evaluation(team.org, {
    board,
    card,
    user,
    completedAt,
    pass,
    results: defaultResults(card, pass),
  });
}

const orgPath = (team: Team) => `/q/${encodeURIComponent(team.org.name)}`;
const boardPath = (team: Team, name: string) => `${orgPath(team)}/boards/${encodeURIComponent(name)}`;

async function chooseView(page: Page, label: 'This Month' | 'Last 3 Evaluations' | '28 Days') {
  await page.getByRole('radiogroup', { name: 'View' }).getByText(label, { exact: true }).click();
  await expect(page.getByRole('radio', { name: label })).toBeChecked();
}

test('an evaluator runs a card, fails one item, leaves feedback, and sees the red square on the board', async ({
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, {
    name: `Press start-up ${suffix()}`,
    items: [
      { type: 'instruction', content: '<p>Stop the press before you start.</p>' },
      { type: 'pass_fail', content: '<p>Guards in place</p>' },
      { type: 'pass_fail', content: '<p>Floor is dry</p>', na: true },
      { type: 'text', content: '<p>Anything to report?</p>' },
      { type: 'numeric', content: '<p>Line speed (m/min)</p>' },
    ],
  });
  const other = await s.card(team.org, { name: `Another card ${suffix()}` });
  const board = await s.board(team.org, { name: `Press Line ${suffix()}`, cardIds: [card.id, other.id] });
  await signInAs(page, team.evaluator.cookie);

  await page.goto(boardPath(team, board.name));
  await expect(page.getByRole('heading', { level: 1, name: board.name })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent Results' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: card.name })).toBeVisible();
  await page.getByRole('link', { name: 'Evaluate' }).click();

  // The selection: the board's cards by name, as large buttons.
  await expect(page).toHaveURL(new RegExp(`/boards/[^/]+/${board.id}/eval/$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a Card' })).toBeVisible();
  const choices = page.getByRole('button', { name: /Press start-up|Another card/ });
  await expect(choices).toHaveCount(2);
  await expect(choices.first()).toContainText('Another card');
  await expectAccessible(page, 'evaluation selection');
  const choice = page.getByRole('button', { name: new RegExp(card.name) });
  const box = await choice.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(56);
  await choice.click();

  // The card: instructions shown, checks answered one by one, what is missing made plain.
  await expect(page).toHaveURL(new RegExp(`/eval/${encodeURIComponent(card.name)}/${card.id}/\\d+$`));
  await expect(page.getByRole('heading', { level: 1, name: card.name })).toBeVisible();
  await expect(page.getByText('Stop the press before you start.')).toBeVisible();
  await expect(page.getByTestId('progress')).toHaveText('2 of 2 checks unanswered');
  const guards = page.getByRole('radiogroup', { name: 'Guards in place' });
  const floor = page.getByRole('radiogroup', { name: 'Floor is dry' });
  await expect(guards.getByRole('radio')).toHaveText(['Pass', 'Fail']);
  await expect(floor.getByRole('radio')).toHaveText(['Pass', 'Fail', 'N/A']);
  await expectAccessible(page, 'evaluation, unanswered');
  const pass = guards.getByRole('radio', { name: 'Pass' });
  expect((await pass.boundingBox())!.height).toBeGreaterThanOrEqual(56);
  await pass.click();
  await expect(pass).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('progress')).toHaveText('1 of 2 checks unanswered');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByText('Answer every Pass/Fail check before submitting: 1 is still unanswered.'),
  ).toBeVisible();
  await expect(page.getByTestId('check').filter({ hasText: 'Floor is dry' })).toContainText(
    'Not answered yet',
  );
  await expect(floor).toHaveAttribute('aria-invalid', 'true');
  await expect(floor.getByRole('radio', { name: 'Pass' })).toBeFocused();
  await expectAccessible(page, 'evaluation, one check missing');
  await floor.getByRole('radio', { name: 'Fail' }).click();
  await expect(page.getByTestId('progress')).toHaveText('All 2 checks answered');
  await expect(page.getByText('Not answered yet')).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Anything to report?' }).fill('Oil near the press');
  await page.getByRole('textbox', { name: 'Line speed (m/min)' }).fill('42.5');
  await page.getByRole('button', { name: 'Submit' }).click();

  // Submitted: feedback is offered.
  await expect(page.getByRole('heading', { level: 1, name: 'Evaluation submitted' })).toBeVisible();
  await expect(page.getByText('Fail', { exact: true })).toBeVisible();
  await expectAccessible(page, 'evaluation submitted');
  await page.getByRole('button', { name: 'Give Feedback' }).click();
  const dialog = page.getByRole('dialog', { name: 'Give Feedback' });
  const text = dialog.getByRole('textbox', { name: 'Feedback' });
  await expect(text).toHaveAttribute('rows', '10');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Feedback must be between 1 and 5000 characters long.')).toBeVisible();
  await expectAccessible(page, 'give feedback dialog');
  await text.fill('The floor by press 2 needs a mat.');
  await dialog.getByRole('button', { name: 'Submit' }).click();

  // Back on the board: today's red square, which opens the evaluation with its results and feedback.
  await expect(page).toHaveURL(new RegExp(`${boardPath(team, board.name)}$`));
  const today = page
    .getByTestId('card-results')
    .filter({ has: page.getByRole('heading', { name: card.name }) })
    .locator('td[aria-current="date"]');
  const square = today.getByRole('button', { name: new RegExp(`^Fail, .+, by ${team.evaluator.email}$`) });
  await expect(square).toBeVisible();
  await square.click();
  const modal = page.getByRole('dialog', { name: card.name });
  const results = modal.getByTestId('result');
  await expect(results).toHaveCount(5);
  await expect(results.nth(0)).toContainText('Stop the press before you start.');
  await expect(results.nth(1)).toContainText('Guards in place');
  await expect(results.nth(1)).toContainText('Pass');
  await expect(results.nth(2)).toContainText('Floor is dry');
  await expect(results.nth(2)).toContainText('Fail');
  await expect(results.nth(3)).toContainText('Oil near the press');
  await expect(results.nth(4)).toContainText('42.5');
  await expect(modal.getByTestId('feedback-item')).toContainText('The floor by press 2 needs a mat.');
  await expect(modal.getByRole('button', { name: 'Delete evaluation' })).toBeVisible();
  await expectAccessible(page, 'evaluation modal, evaluator');
});

test('a viewer sees Recent Results and no Evaluate button, and opens an evaluation read-only', async ({
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, { name: `Cold room ${suffix()}` });
  const board = await s.board(team.org, { name: `Cold Store ${suffix()}`, cardIds: [card.id] });
  const done = await evaluate(team, board, card, team.evaluator, Date.now() - 5 * MINUTE, false);
  await seedEvaluations().feedback(team.org, {
    board,
    evaluation: { id: done.id, card },
    user: team.evaluator,
    content: 'Door seal is worn.',
  });
  await signInAs(page, team.viewer.cookie);
  await page.clock.install();
  await page.goto(boardPath(team, board.name));
  await expect(page.getByRole('heading', { level: 2, name: 'Recent Results' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Evaluate' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Feedback' })).toHaveCount(0);
  await expect(page.getByTestId('square')).toHaveCount(1);

  // Results refresh every 30 s.
  await evaluate(team, board, card, team.admin, Date.now() - MINUTE);
  await page.clock.fastForward(25_000);
  await expect(page.getByTestId('square')).toHaveCount(1);
  await page.clock.fastForward(5_000);
  await expect(
    page.getByRole('button', { name: new RegExp(`^Pass, .+, by ${team.admin.email}$`) }),
  ).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`^Fail, .+, by ${team.evaluator.email}$`) }).click();
  const modal = page.getByRole('dialog', { name: card.name });
  await expect(modal.getByText('Door seal is worn.')).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Delete evaluation' })).toHaveCount(0);
  await expect(modal.getByRole('button', { name: 'Give Feedback' })).toHaveCount(0);
  await expect(modal.getByRole('button', { name: 'Edit feedback' })).toHaveCount(0);
  await expectAccessible(page, 'evaluation modal, viewer');

  // The evaluation's own address shows it read-only; the selection page is not the viewer's.
  await page.goto(
    `${orgPath(team)}/boards/${encodeURIComponent(board.name)}/${board.id}/eval/${encodeURIComponent(card.name)}/${card.id}/${done.id}`,
  );
  await expect(page.getByRole('heading', { level: 1, name: card.name })).toBeVisible();
  await expect(page.getByText('Door seal is worn.')).toBeVisible();
  await expect(page.getByRole('radio')).toHaveCount(0);
  await page.goto(`${orgPath(team)}/boards/${encodeURIComponent(board.name)}/${board.id}/eval/`);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test('the board view asks for its results beside its cards, not after them, and once', async ({ page }) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, { name: `Boiler ${suffix()}` });
  const board = await s.board(team.org, { name: `Plant Room ${suffix()}`, cardIds: [card.id] });
  await evaluate(team, board, card, team.evaluator, Date.now() - 5 * MINUTE);
  const events: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/get-evaluations')) events.push('evaluations asked');
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/get-cards-by-board-id')) events.push('cards answered');
  });
  await signInAs(page, team.viewer.cookie);
  await page.goto(boardPath(team, board.name));
  await expect(page.getByTestId('square')).toHaveCount(1);
  // One round trip less before the board draws (issue 15), and the results not fetched twice.
  expect(events).toEqual(['evaluations asked', 'cards answered']);
});

test('a board of nine cards draws every card, in name order, in each view', async ({ page }) => {
  // The first cards are drawn first and the rest in slices after (decision 0766): all of them arrive.
  const s = seed();
  const team = await s.team();
  const tag = suffix();
  const cards = [];
  for (let n = 9; n >= 1; n--) cards.push(await s.card(team.org, { name: `Station ${n} ${tag}` }));
  const board = await s.board(team.org, { name: `Long Line ${tag}`, cardIds: cards.map((c) => c.id) });
  await evaluate(team, board, cards[0]!, team.evaluator, Date.now() - 5 * MINUTE);
  const names = Array.from({ length: 9 }, (_, i) => `Station ${i + 1} ${tag}`);
  await signInAs(page, team.viewer.cookie);
  await page.goto(boardPath(team, board.name));
  const headings = page.getByTestId('card-results').getByRole('heading', { level: 3 });
  await expect(headings).toHaveText(names);
  await expect(page.getByTestId('square')).toHaveCount(1);
  await chooseView(page, 'Last 3 Evaluations');
  await expect(headings).toHaveText(names);
  await chooseView(page, '28 Days');
  await expect(headings).toHaveText(names);
});

test.describe('in a time zone ahead of the server', () => {
  const zone = 'Pacific/Auckland';
  test.use({ timezoneId: zone });

  test('the three views show the right days', async ({ page }) => {
    const s = seed();
    const team = await s.team();
    const busy = await s.card(team.org, { name: `A busy card ${suffix()}` });
    const quiet = await s.card(team.org, { name: `B quiet card ${suffix()}` });
    const busyDayCard = await s.card(team.org, { name: `C busy day ${suffix()}` });
    const board = await s.board(team.org, {
      name: `Views ${suffix()}`,
      cardIds: [busy.id, quiet.id, busyDayCard.id],
    });
    const now = Date.now();
    const local = (ms: number) => new TZDate(ms, zone);
    const today = startOfDay(local(now));
    const first28 = addDays(startOfDay(endOfWeek(today, { weekStartsOn: 0 })), -27);
    // Distinct minutes, so that every square has a name of its own.
    const times = [
      now - 3 * MINUTE,
      today.getTime() + 61 * MINUTE > now ? now - 7 * MINUTE : today.getTime() + 61 * MINUTE,
      now - 6 * DAY - 11 * MINUTE,
      now - 13 * DAY - 17 * MINUTE,
      first28.getTime() + 23 * MINUTE,
      now - 30 * DAY - 29 * MINUTE,
      now - 45 * DAY - 31 * MINUTE,
    ];
    const seeded = [];
    for (const [i, time] of times.entries()) {
      const pass = i % 2 === 0;
      await evaluate(team, board, busy, team.evaluator, time, pass);
      seeded.push({ time, pass });
    }
    const old = now - 50 * DAY;
    await evaluate(team, board, quiet, team.admin, old, false);
    // A busy day: five evaluations yesterday; its cell draws the last three and '+2' for the others.
    const yesterdayNoon = addDays(today, -1).getTime() + 12 * 60 * MINUTE;
    const busyDay = [false, true, true, false, true].map((pass, i) => ({
      time: yesterdayNoon + (i + 1) * MINUTE,
      pass,
    }));
    for (const { time, pass } of busyDay)
      await evaluate(team, board, busyDayCard, team.evaluator, time, pass);

    const name = (time: number, pass: boolean, email = team.evaluator.email) =>
      `${pass ? 'Pass' : 'Fail'}, ${format(local(time), 'd MMM HH:mm')}, by ${email}`;
    const dayOf = (time: number) => format(local(time), 'yyyy-MM-dd');
    const busyCard = page
      .getByTestId('card-results')
      .filter({ has: page.getByRole('heading', { name: busy.name }) });
    const quietCard = page
      .getByTestId('card-results')
      .filter({ has: page.getByRole('heading', { name: quiet.name }) });

    await signInAs(page, team.evaluator.cookie);
    await page.goto(boardPath(team, board.name));

    // This Month (the default): the month's days; a square in its day's cell when in this month.
    await expect(page.getByRole('radio', { name: 'This Month' })).toBeChecked();
    await expect(page.getByTestId('period')).toHaveText(format(today, 'MMMM yyyy'));
    await expect(busyCard.locator('td[data-date]')).toHaveCount(getDaysInMonth(today));
    await expect(busyCard.locator('td[aria-current="date"]')).toHaveAttribute(
      'data-date',
      format(today, 'yyyy-MM-dd'),
    );
    for (const { time, pass } of seeded) {
      const inMonth = format(local(time), 'yyyy-MM') === format(today, 'yyyy-MM');
      const square = busyCard.getByRole('button', { name: name(time, pass), exact: true });
      await expect(square, `${name(time, pass)} this month`).toHaveCount(inMonth ? 1 : 0);
      if (inMonth) {
        await expect(
          busyCard
            .locator(`td[data-date="${dayOf(time)}"]`)
            .getByRole('button', { name: name(time, pass), exact: true }),
        ).toBeVisible();
      }
    }
    await expect(quietCard.getByRole('button')).toHaveCount(0);
    await expectAccessible(page, 'board view, this month');

    // 28 Days: four Sunday-first weeks ending on the coming Saturday.
    await chooseView(page, '28 Days');
    const days = busyCard.locator('td[data-date]');
    await expect(days).toHaveCount(28);
    await expect(days.first()).toHaveAttribute('data-date', format(first28, 'yyyy-MM-dd'));
    await expect(days.last()).toHaveAttribute(
      'data-date',
      format(endOfWeek(today, { weekStartsOn: 0 }), 'yyyy-MM-dd'),
    );
    expect(first28.getDay()).toBe(0);
    for (const { time, pass } of seeded) {
      const inView = time >= first28.getTime();
      await expect(
        busyCard.getByRole('button', { name: name(time, pass), exact: true }),
        `${name(time, pass)} in 28 days`,
      ).toHaveCount(inView ? 1 : 0);
      if (inView) {
        await expect(
          busyCard
            .locator(`td[data-date="${dayOf(time)}"]`)
            .getByRole('button', { name: name(time, pass), exact: true }),
        ).toBeVisible();
      }
    }
    await expect(quietCard.getByRole('button')).toHaveCount(0);
    const busyDayResults = page
      .getByTestId('card-results')
      .filter({ has: page.getByRole('heading', { name: busyDayCard.name }) });
    const yesterdayCell = busyDayResults.locator(`td[data-date="${dayOf(yesterdayNoon)}"]`);
    await expect(yesterdayCell.getByRole('button')).toHaveCount(3);
    for (const [i, { time, pass }] of busyDay.slice(-3).entries()) {
      await expect(yesterdayCell.getByRole('button').nth(i)).toHaveAccessibleName(name(time, pass));
    }
    await expect(yesterdayCell.getByTestId('more').locator('[aria-hidden="true"]')).toHaveText('+2');
    await expect(yesterdayCell.getByTestId('more')).toContainText('2 earlier not shown: 1 pass, 1 fail');
    await expect(yesterdayCell.getByTestId('more')).toHaveAttribute('data-fail', 'true');
    await expect(busyDayResults.getByText('3 pass · 2 fail')).toBeVisible();
    await expectAccessible(page, 'board view, 28 days');

    // Last 3: each card's three newest, even from long ago.
    await chooseView(page, 'Last 3 Evaluations');
    await expect(busyCard.getByRole('button')).toHaveCount(3);
    const newest = [...seeded].sort((a, b) => a.time - b.time).slice(-3);
    for (const [i, { time, pass }] of newest.entries()) {
      await expect(busyCard.getByRole('button').nth(i)).toHaveAccessibleName(name(time, pass));
    }
    await expect(quietCard.getByRole('button')).toHaveCount(1);
    await expect(quietCard.getByRole('button')).toHaveAccessibleName(name(old, false, team.admin.email));
    await expectAccessible(page, 'board view, last 3');
    // The chosen view is in the address, so a wall display can keep it.
    await expect(page).toHaveURL(/\?view=last3$/);
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Last 3 Evaluations' })).toBeChecked();
  });
});

test('an unknown board is not found, and a board without cards says how to assign them', async ({ page }) => {
  const s = seed();
  const team = await s.team();
  const empty = await s.board(team.org, { name: `Empty Dock ${suffix()}` });
  await signInAs(page, team.admin.cookie);
  await page.goto(boardPath(team, 'No such board'));
  await expect(page.getByRole('heading', { level: 1, name: 'Board not found' })).toBeVisible();
  await expectAccessible(page, 'board not found');

  await page.goto(boardPath(team, empty.name));
  await expect(page.getByRole('heading', { level: 1, name: empty.name })).toBeVisible();
  await expect(page.getByText('This board does not have any cards.')).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'View' })).toHaveCount(0);
  await expectAccessible(page, 'board without cards');
  await page.getByRole('link', { name: 'Assign cards to the board.' }).click();
  await expect(page).toHaveURL(new RegExp(`${orgPath(team)}/home$`));
});

test.describe('in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('the board view, its anonymous QR code, an evaluation and board feedback pass the accessibility checks', async ({
    page,
  }) => {
    const s = seed();
    const team = await s.team();
    const card = await s.card(team.org, { name: `Dark card ${suffix()}` });
    const board = await s.board(team.org, {
      name: `Night Shift ${suffix()}`,
      cardIds: [card.id],
      hasAnonymous: true,
    });
    const now = Date.now();
    for (let i = 0; i < 8; i++) await evaluate(team, board, card, team.evaluator, now - i * DAY, i % 3 !== 1);
    await signInAs(page, team.evaluator.cookie);
    await page.goto(boardPath(team, board.name));
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(
      page.getByRole('img', { name: `QR code for anonymous evaluation of ${board.name}` }),
    ).toBeVisible();
    await expect(page.getByTestId('square').first()).toBeVisible();
    await expectAccessible(page, 'board view, dark, this month');
    await chooseView(page, '28 Days');
    await expectAccessible(page, 'board view, dark, 28 days');
    await chooseView(page, 'Last 3 Evaluations');
    await expectAccessible(page, 'board view, dark, last 3');
    await page.getByTestId('square').last().click();
    await expect(page.getByRole('dialog', { name: card.name }).getByTestId('result')).toHaveCount(3);
    await expectAccessible(page, 'evaluation modal, dark');
    await page.getByRole('dialog', { name: card.name }).getByRole('button', { name: 'Close' }).click();

    // Board-level feedback: closing resets it; Submit sends it.
    await page.getByRole('button', { name: 'Feedback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give Feedback' });
    await dialog.getByRole('textbox', { name: 'Feedback' }).fill('Half-written');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Feedback' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Feedback' })).toHaveValue('');
    await expectAccessible(page, 'give feedback, dark');
    await dialog.getByRole('textbox', { name: 'Feedback' }).fill('Lights in bay 3 are out.');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Thank you for your feedback.')).toBeVisible();
    await expectAccessible(page, 'board view, dark, after feedback');

    await page.goto(`${orgPath(team)}/home/feedback`);
    const item = page.getByTestId('feedback-item').filter({ hasText: 'Lights in bay 3 are out.' });
    await expect(item).toContainText(`${board.name} › Board feedback`);
    await expectAccessible(page, 'feedback tab, dark');
  });
});

const EXCEL_NAME = (kind: string) =>
  new RegExp(`^Checkboard_${kind}_\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}\\.xlsx$`);

async function downloadExcel(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download Excel' }).click(),
  ]);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  return { name: download.suggestedFilename(), sheet: workbook.worksheets[0]! };
}

test('the Evaluations tab searches, loads more, opens and deletes, and downloads the filter as Excel', async ({
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const torque = await s.card(team.org, { name: `Torque check ${suffix()}` });
  const forklift = await s.card(team.org, { name: `Forklift pre-use ${suffix()}` });
  const assembly = await s.board(team.org, { name: `Assembly ${suffix()}`, cardIds: [torque.id] });
  const yard = await s.board(team.org, { name: `Yard ${suffix()}`, cardIds: [forklift.id] });
  const now = Date.now();
  for (let i = 1; i <= 50; i++)
    await evaluate(team, assembly, torque, team.evaluator, now - i * 3_600_000, i % 7 !== 0);
  // Noon, so that it and the one a minute before share a day whatever the time of the run (run just after
  // midnight, a minute before five days ago was the day before).
  const fiveDaysAgo = startOfDay(now - 5 * DAY).getTime() + 12 * 3_600_000;
  await evaluate(team, yard, forklift, team.evaluator, fiveDaysAgo, false);
  await evaluate(team, yard, forklift, team.evaluator, fiveDaysAgo - MINUTE, true);
  for (let i = 0; i < 3; i++)
    await evaluate(team, assembly, torque, team.admin, now - 30 * MINUTE - i * MINUTE);

  await signInAs(page, team.evaluator.cookie);
  await page.goto(`${orgPath(team)}/home/evaluations`);
  const rows = page.getByTestId('evaluation-row');
  await expect(rows).toHaveCount(48);
  await expect(page.getByTestId('shown-count')).toHaveText('Showing 48 evaluations');
  // The evaluator's own only, newest first: the administrator's newer ones are not among them.
  await expect(rows.first()).toContainText(format(now - 3_600_000, 'd MMM yyyy HH:mm'));
  await expect(page.getByText(team.admin.email)).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'All members' })).toHaveCount(0);
  await expectAccessible(page, 'evaluations tab');

  // One arriving meanwhile neither shifts nor joins the pages already started: nothing skipped or repeated.
  const arrived = Date.now();
  await evaluate(team, assembly, torque, team.evaluator, arrived);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(52);
  await expect(page.getByTestId('shown-count')).toHaveText('Showing 52 evaluations');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await expect(rows.first()).toContainText(format(now - 3_600_000, 'd MMM yyyy HH:mm'));
  const names = await rows
    .getByRole('button', { name: /^Open / })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
  expect(new Set(names).size).toBe(52);
  await expect(rows.last()).toContainText(format(fiveDaysAgo - MINUTE, 'd MMM yyyy HH:mm'));

  // Card name, any case, any part.
  await page.getByRole('textbox', { name: 'Card' }).fill('FORKLIFT');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(forklift.name);
  await expect(rows.nth(0)).toContainText('Fail');
  await expect(rows.nth(1)).toContainText('Pass');

  // The download holds what the filter shows: one row per result.
  const excel = await downloadExcel(page);
  expect(excel.name).toMatch(EXCEL_NAME('Evaluations'));
  expect(excel.sheet.actualRowCount).toBe(1 + 2 * 3);
  const header = excel.sheet.getRow(1).values as unknown[];
  const cardColumn = header.indexOf('Card');
  expect(cardColumn).toBeGreaterThan(0);
  for (let r = 2; r <= 7; r++) expect(excel.sheet.getRow(r).getCell(cardColumn).value).toBe(forklift.name);

  // A date range: whole days in the browser's zone.
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(rows).toHaveCount(48);
  // A new search starts again: the newcomer leads.
  await expect(rows.first()).toContainText(format(arrived, 'd MMM yyyy HH:mm'));
  await page.getByLabel('Completed from').fill(format(fiveDaysAgo, 'yyyy-MM-dd'));
  await page.getByLabel('Completed to').fill(format(fiveDaysAgo - 2 * DAY, 'yyyy-MM-dd'));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('The end date is before the start date.')).toBeVisible();
  await page.getByLabel('Completed to').fill(format(fiveDaysAgo, 'yyyy-MM-dd'));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(2);

  await page.getByRole('textbox', { name: 'User' }).fill('nobody at all');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No evaluations found')).toBeVisible();
  await expectAccessible(page, 'evaluations tab, nothing found');

  // Open one and delete it (one's own).
  await page.getByRole('textbox', { name: 'User' }).fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(2);
  await rows
    .first()
    .getByRole('button', { name: /^Open / })
    .click();
  const modal = page.getByRole('dialog', { name: forklift.name });
  await expect(modal.getByTestId('result')).toHaveCount(3);
  await modal.getByRole('button', { name: 'Delete evaluation' }).click();
  await expect(modal.getByText('Delete this evaluation, its results and its feedback?')).toBeVisible();
  await expectAccessible(page, 'delete evaluation');
  await modal.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(modal).toBeHidden();
  await expect(rows).toHaveCount(1);
});

test('an administrator sees every member’s evaluations with "All members", and may delete them', async ({
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, { name: `Hygiene ${suffix()}` });
  const board = await s.board(team.org, { name: `Kitchen ${suffix()}`, cardIds: [card.id] });
  const now = Date.now();
  await evaluate(team, board, card, team.evaluator, now - 10 * MINUTE);
  await evaluate(team, board, card, team.evaluator, now - 20 * MINUTE, false);
  await evaluate(team, board, card, null, now - 30 * MINUTE);
  await signInAs(page, team.admin.cookie);
  await page.goto(`${orgPath(team)}/home/evaluations`);
  await expect(page.getByText('No evaluations found')).toBeVisible();
  await page.getByRole('switch', { name: 'All members' }).check();
  await page.getByRole('button', { name: 'Search' }).click();
  const rows = page.getByTestId('evaluation-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText('Anonymous');
  await expectAccessible(page, 'evaluations tab, all members');
  await rows
    .nth(1)
    .getByRole('button', { name: /^Open / })
    .click();
  const modal = page.getByRole('dialog', { name: card.name });
  await expect(modal.getByText(`by ${team.evaluator.email}`)).toBeVisible();
  await modal.getByRole('button', { name: 'Delete evaluation' }).click();
  await modal.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(modal).toBeHidden();
  await expect(rows).toHaveCount(2);
});

test('the Feedback tab lists one’s feedback, edits and deletes it, opens its evaluation, and downloads it', async ({
  page,
}) => {
  const s = seed();
  const e = seedEvaluations();
  const team = await s.team();
  const card = await s.card(team.org, { name: `Loading bay ${suffix()}` });
  const board = await s.board(team.org, { name: `Dispatch ${suffix()}`, cardIds: [card.id] });
  const now = Date.now();
  const done = await evaluate(team, board, card, team.evaluator, now - 2 * DAY);
  await e.feedback(team.org, {
    board,
    user: team.evaluator,
    content: 'The bay door sticks.',
    createdAt: now - DAY,
  });
  await e.feedback(team.org, {
    board,
    evaluation: { id: done.id, card },
    user: team.evaluator,
    content: 'Pallet wrap ran out.',
    createdAt: now - 2 * DAY,
  });
  await e.feedback(team.org, { board, user: team.admin, content: 'Not yours to see.', createdAt: now });

  await signInAs(page, team.evaluator.cookie);
  await page.goto(`${orgPath(team)}/home/feedback`);
  const items = page.getByTestId('feedback-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('The bay door sticks.');
  await expect(items.nth(0)).toContainText(`${board.name} › Board feedback`);
  await expect(items.nth(1)).toContainText(`${board.name} › ${card.name}`);
  await expect(page.getByText('Not yours to see.')).toHaveCount(0);
  await expectAccessible(page, 'feedback tab');

  // Edit one's own.
  await items.nth(0).getByRole('button', { name: 'Edit feedback' }).click();
  const editor = items.nth(0).getByRole('textbox', { name: 'Edit feedback' });
  await expect(editor).toHaveValue('The bay door sticks.');
  await editor.fill('The bay door sticks when cold.');
  await expectAccessible(page, 'feedback tab, editing');
  await items.nth(0).getByRole('button', { name: 'Submit' }).click();
  await expect(items.nth(0)).toContainText('The bay door sticks when cold.');

  // The evaluation it is on.
  await items.nth(1).getByRole('button', { name: 'Open evaluation' }).click();
  const modal = page.getByRole('dialog', { name: card.name });
  await expect(modal.getByTestId('feedback-item')).toContainText('Pallet wrap ran out.');
  await modal.getByRole('button', { name: 'Close' }).click();

  // Delete one's own.
  await items.nth(1).getByRole('button', { name: 'Delete feedback' }).click();
  await expect(items.nth(1).getByText('Delete this feedback?')).toBeVisible();
  await items.nth(1).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(items).toHaveCount(1);

  const excel = await downloadExcel(page);
  expect(excel.name).toMatch(EXCEL_NAME('Feedback'));
  expect(excel.sheet.actualRowCount).toBe(2);

  await page.getByRole('textbox', { name: 'Board' }).fill('no such board');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No feedback found')).toBeVisible();
});

test('the other reading of the evaluation path, with a redirect, and an evaluation already complete', async ({
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, { name: `Gate check ${suffix()}` });
  const board = await s.board(team.org, { name: `Gatehouse ${suffix()}`, cardIds: [card.id] });
  const open = await seedEvaluations().evaluation(team.org, {
    board,
    card,
    user: team.evaluator,
    completedAt: null,
  });
  await signInAs(page, team.evaluator.cookie);
  const home = `${orgPath(team)}/home/evaluations`;
  await page.goto(
    `${orgPath(team)}/boards/${board.id}/${card.id}/eval/a/b/${open.id}/extra?redirect=${encodeURIComponent(home)}`,
  );
  await expect(page.getByRole('heading', { level: 1, name: card.name })).toBeVisible();
  await expect(page.getByText(board.name, { exact: true })).toBeVisible();
  await page
    .getByRole('radiogroup', { name: 'Guards in place' })
    .getByRole('radio', { name: 'Pass' })
    .click();
  await page.getByRole('radiogroup', { name: 'Floor is dry' }).getByRole('radio', { name: 'N/A' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Evaluation submitted' })).toBeVisible();
  await expect(page.getByText('Pass', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Skip' }).click();
  await expect(page).toHaveURL(new RegExp(`${home}$`));
  await expect(page.getByTestId('evaluation-row')).toHaveCount(1);

  // Once complete, its address shows it read-only.
  const primary = `${orgPath(team)}/boards/${encodeURIComponent(board.name)}/${board.id}/eval/${encodeURIComponent(card.name)}/${card.id}/${open.id}`;
  await page.goto(primary);
  await expect(page.getByTestId('result')).toHaveCount(3);
  await expect(page.getByTestId('result').nth(2)).toContainText('N/A');
  await expect(page.getByRole('radio')).toHaveCount(0);
  await expectAccessible(page, 'complete evaluation, read-only');

  // A redirect to another site is ignored: back to the board.
  const another = await seedEvaluations().evaluation(team.org, {
    board,
    card,
    user: team.evaluator,
    completedAt: null,
  });
  await page.goto(
    `${orgPath(team)}/boards/${encodeURIComponent(board.name)}/${board.id}/eval/${encodeURIComponent(card.name)}/${card.id}/${another.id}?redirect=${encodeURIComponent('//example.com/x')}`,
  );
  await page
    .getByRole('radiogroup', { name: 'Guards in place' })
    .getByRole('radio', { name: 'Fail' })
    .click();
  await page.getByRole('radiogroup', { name: 'Floor is dry' }).getByRole('radio', { name: 'Pass' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('button', { name: 'Skip' }).click();
  await expect(page).toHaveURL(new RegExp(`${boardPath(team, board.name)}$`));
});

test('each failure shows its message', async ({ page }) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, { name: `Fragile ${suffix()}` });
  const board = await s.board(team.org, { name: `Faults ${suffix()}`, cardIds: [card.id] });
  const done = await evaluate(team, board, card, team.evaluator, Date.now() - MINUTE);
  const broken = (path: string) =>
    page.route(`**/api/${path}`, (route) => route.fulfill({ status: 500, body: 'down' }));
  await signInAs(page, team.evaluator.cookie);

  await broken('add-evaluation');
  await page.goto(`${orgPath(team)}/boards/${encodeURIComponent(board.name)}/${board.id}/eval/`);
  await page.getByRole('button', { name: new RegExp(card.name) }).click();
  await expect(page.getByText('Unable to create an evaluation. Please try again.')).toBeVisible();
  await page.unrouteAll();

  await broken('add-results');
  await page.getByRole('button', { name: new RegExp(card.name) }).click();
  await page
    .getByRole('radiogroup', { name: 'Guards in place' })
    .getByRole('radio', { name: 'Pass' })
    .click();
  await page.getByRole('radiogroup', { name: 'Floor is dry' }).getByRole('radio', { name: 'Pass' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Unable to add the results. Please try again.')).toBeVisible();
  await expectAccessible(page, 'evaluation, results refused');
  await page.unrouteAll();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Evaluation submitted' })).toBeVisible();

  await broken('add-feedback');
  await page.getByRole('button', { name: 'Give Feedback' }).click();
  const dialog = page.getByRole('dialog', { name: 'Give Feedback' });
  await dialog.getByRole('textbox', { name: 'Feedback' }).fill('Noted.');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Could not add feedback. Please try again later.')).toBeVisible();
  await page.unrouteAll();

  await broken('get-evaluation');
  await page.goto(
    `${orgPath(team)}/boards/${encodeURIComponent(board.name)}/${board.id}/eval/${encodeURIComponent(card.name)}/${card.id}/${done.id}`,
  );
  await expect(page.getByText('Did not find evaluation. Please try again later.')).toBeVisible();
  await page.unrouteAll();

  await broken('get-excel');
  await page.goto(`${orgPath(team)}/home/evaluations`);
  await page.getByRole('button', { name: 'Download Excel' }).click();
  await expect(page.getByText('There was an error getting the excel file.')).toBeVisible();
  await expectAccessible(page, 'evaluations tab, excel refused');
});

test('an export refused while another runs for the organisation says so, and runs once that one is done', async ({
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, { name: `Exported ${suffix()}` });
  const board = await s.board(team.org, { name: `Export ${suffix()}`, cardIds: [card.id] });
  await evaluate(team, board, card, team.evaluator, Date.now() - MINUTE);
  // Another member's export of this organisation, running (in this or another app process).
  await s.env.db
    .insertInto('export_leases')
    .values({ org_id: team.org.id, holder: 'another export', expires_at: Date.now() + 60_000 })
    .execute();
  await signInAs(page, team.evaluator.cookie);
  await page.goto(`${orgPath(team)}/home/evaluations`);
  await expect(page.getByTestId('evaluation-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Download Excel' }).click();
  await expect(
    page.getByText(
      'An export is already running for your organisation. Please try again when it has finished.',
    ),
  ).toBeVisible();
  await expectAccessible(page, 'evaluations tab, export busy');

  await s.env.db.deleteFrom('export_leases').where('org_id', '=', team.org.id).execute();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download Excel' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Checkboard_Evaluations_.+\.xlsx$/);
  await expect(
    page.getByText('An export is already running for your organisation.', { exact: false }),
  ).toHaveCount(0);
});
