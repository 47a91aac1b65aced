/**
 * Issue 14's offline journey: an evaluator opens the board, loses the network, completes two evaluations
 * (one with a photo), reopens the app with no network, closes the page, comes back online, and both arrive
 * exactly once, at the times they were done.
 */
import { fileURLToPath } from 'node:url';
import { expect, expectAccessible, seed, signInAs, test } from './fixtures.ts';

const PHOTO = fileURLToPath(new URL('../server/modules/evidence/fixtures/photo.jpg', import.meta.url));
const suffix = () => Math.random().toString(36).slice(2, 7);

test.use({ serviceWorkers: 'allow' });

test('two evaluations done offline, one with a photo, arrive once when the network returns', async ({
  context,
  page,
}) => {
  test.setTimeout(120_000); // a long journey: two evaluations, offline and back
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, {
    name: `Cold store ${suffix()}`,
    items: [
      { type: 'pass_fail', content: '<p>Door seals intact</p>' },
      { type: 'numeric', content: '<p>Temperature</p>' },
    ],
  });
  const board = await s.board(team.org, { name: `Basement ${suffix()}`, cardIds: [card.id] });
  const boardPath = `/q/${encodeURIComponent(team.org.name)}/boards/${encodeURIComponent(board.name)}`;
  const evaluations = () =>
    s.env.db
      .selectFrom('evaluations')
      .select(['id', 'pass', 'completed_at', 'completed_on_device'])
      .where('org_id', '=', team.org.id)
      .execute();
  await signInAs(page, team.evaluator.cookie);

  // Online: the board and its evaluation selection are seen once, and the app is installed for offline use.
  await page.goto(boardPath);
  await expect(page.getByRole('heading', { level: 2, name: card.name })).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.getByRole('link', { name: 'Evaluate' }).click();
  await expect(page.getByRole('button', { name: new RegExp(card.name) })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 2, name: card.name })).toBeVisible();

  // The network goes.
  await context.setOffline(true);
  await expect(page.getByText('You are offline. Showing what was last seen.')).toBeVisible();

  const evaluate = async (pass: boolean, photo: boolean) => {
    await page.getByRole('link', { name: 'Evaluate' }).click();
    await page.getByRole('button', { name: new RegExp(card.name) }).click();
    await expect(page.getByRole('heading', { level: 1, name: card.name })).toBeVisible();
    await page
      .getByRole('radiogroup', { name: 'Door seals intact' })
      .getByRole('radio', { name: pass ? 'Pass' : 'Fail' })
      .click();
    await page.getByRole('textbox', { name: 'Temperature' }).fill(pass ? '3' : '9');
    if (photo) {
      const item = page.getByTestId('check').filter({ hasText: 'Door seals intact' });
      await item.getByTestId('photo-input').setInputFiles(PHOTO);
      await expect(item.getByRole('button', { name: 'Remove photo 1' })).toBeVisible();
    }
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Evaluation saved' })).toBeVisible();
    await expect(
      page.getByRole('main').getByText('Saved on this device — will send when online', { exact: true }),
    ).toBeVisible();
    await expectAccessible(page, 'evaluation saved offline');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('heading', { level: 2, name: card.name })).toBeVisible();
  };
  await evaluate(false, true);
  await evaluate(true, false);
  await expect(page.getByTestId('offline-status')).toContainText('2 evaluations waiting to send.');
  expect(await evaluations()).toEqual([]);

  // Still offline, the app opens again from the device, with what it last saw and what waits.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: card.name })).toBeVisible();
  await expect(page.getByText('You are offline. Showing what was last seen.')).toBeVisible();
  await expect(page.getByTestId('offline-status')).toContainText(
    '2 evaluations waiting to send. Saved on this device — will send when online.',
  );
  await expectAccessible(page, 'board view offline');

  // The page is closed; later, online again, the app is opened and sends both, once.
  const savedBy = Date.now();
  await page.close();
  await context.setOffline(false);
  const again = await context.newPage();
  await again.goto(boardPath);
  await expect.poll(async () => (await evaluations()).length, { timeout: 20_000 }).toBe(2);
  await expect(again.getByTestId('offline-status')).toHaveCount(0, { timeout: 20_000 });
  const arrived = await evaluations();
  expect(arrived.map((e) => e.pass).sort()).toEqual([0, 1]);
  for (const evaluation of arrived) {
    // Kept at the device's time of Submit, and marked so.
    expect(evaluation.completed_on_device).toBe(1);
    expect(evaluation.completed_at).toBeLessThanOrEqual(savedBy);
  }
  const photos = await s.env.db
    .selectFrom('result_photos')
    .select('evaluation_id')
    .where('org_id', '=', team.org.id)
    .execute();
  expect(photos).toEqual([{ evaluation_id: arrived.find((e) => e.pass === 0)!.id }]);
  // Nothing more arrives: a reload (which tries the outbox again) sends nothing twice.
  await again.reload();
  await expect(again.getByRole('heading', { level: 2, name: card.name })).toBeVisible();
  expect(await evaluations()).toHaveLength(2);
  await expect(again.getByRole('button', { name: /^Fail, / })).toHaveCount(1);
});

test.describe('with the server out of reach', () => {
  // page.route must see the app's calls: no service worker between them.
  test.use({ serviceWorkers: 'block' });

  test('a refresh that cannot reach the server leaves the board’s cards on screen, with its message', async ({
    page,
  }) => {
    const s = seed();
    const team = await s.team();
    const card = await s.card(team.org, { name: `Loading bay ${suffix()}` });
    const board = await s.board(team.org, { name: `Dock ${suffix()}`, cardIds: [card.id] });
    await signInAs(page, team.evaluator.cookie);
    await page.goto(`/q/${encodeURIComponent(team.org.name)}/boards/${encodeURIComponent(board.name)}`);
    await expect(page.getByRole('heading', { level: 2, name: card.name })).toBeVisible();

    // The server goes out of reach for the board's cards; the evaluator looks at the cards and comes back.
    await page.route('**/api/get-cards-by-board-id', (route) => route.abort('internetdisconnected'));
    await page.getByRole('link', { name: 'Evaluate' }).click();
    await expect(page.getByRole('button', { name: new RegExp(card.name) })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the board' }).click();
    const failure = page
      .getByRole('alert')
      .filter({ hasText: 'Unable to reach server. Please try again later' });
    await expect(failure).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: card.name })).toBeVisible();
    await expectAccessible(page, 'board view, its refresh failed');

    // Back in reach: the next refresh clears the message.
    await page.unroute('**/api/get-cards-by-board-id');
    await page.getByRole('link', { name: 'Evaluate' }).click();
    await page.getByRole('link', { name: 'Back to the board' }).click();
    await expect(page.getByRole('heading', { level: 2, name: card.name })).toBeVisible();
    await expect(failure).toHaveCount(0);
  });
});
