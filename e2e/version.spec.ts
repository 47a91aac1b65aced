import { expect, expectAccessible, seed, signInAs, test } from './fixtures.ts';

test('a new build is announced, counted down, and reloaded', async ({ page }) => {
  let version: string | null = null;
  await page.route('/version.txt', async (route) => {
    if (version === null) return route.continue();
    return route.fulfill({ status: 200, contentType: 'text/plain', body: version });
  });
  await page.goto('/');
  await expect(page.getByTestId('version-banner')).toHaveCount(0);

  // The server now has another build; the next navigation notices.
  version = 'a-newer-build';
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
  const banner = page.getByTestId('version-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(/Reloading in (30|29|28) s/);
  await expect(banner).toContainText(/Reloading in 2[0-7] s/, { timeout: 12_000 });
  await expectAccessible(page, 'the new-version banner');

  version = null;
  const reloaded = page.waitForEvent('load');
  await banner.getByRole('button', { name: 'Reload Now' }).click();
  await reloaded;
  await expect(page.getByTestId('version-banner')).toHaveCount(0);
});

test('a new build is noticed on opening the app, once the page has drawn', async ({ page }) => {
  // The app as a service worker would serve it from its cache, while the server has moved on.
  await page.route('/version.txt', (route) =>
    route.fulfill({ status: 200, contentType: 'text/plain', body: 'a-newer-build' }),
  );
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('version-banner')).toContainText(/Reloading in \d+ s/);
  await expectAccessible(page, 'the new-version banner on opening');
});

test('a new build waits while an evaluation saved on the device is still to send', async ({
  context,
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, { items: [{ type: 'pass_fail', content: '<p>Lights on</p>' }] });
  const board = await s.board(team.org, { cardIds: [card.id] });
  let version: string | null = null;
  await page.route('/version.txt', async (route) => {
    if (version === null) return route.continue();
    return route.fulfill({ status: 200, contentType: 'text/plain', body: version });
  });
  await signInAs(page, team.evaluator.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/boards/${encodeURIComponent(board.name)}`);
  await expect(page.getByRole('heading', { level: 2, name: card.name })).toBeVisible();

  // Saved offline; back online the server cannot be reached for it yet.
  await context.setOffline(true);
  await page.getByRole('link', { name: 'Evaluate' }).click();
  await page.getByRole('button', { name: new RegExp(card.name) }).click();
  await page.getByRole('radiogroup', { name: 'Lights on' }).getByRole('radio', { name: 'Pass' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Evaluation saved' })).toBeVisible();
  await page.route('/api/add-evaluation', (route) => route.abort('connectionrefused'));
  await context.setOffline(false);

  version = 'a-newer-build';
  await page.getByRole('button', { name: 'Back' }).click();
  const banner = page.getByTestId('version-banner');
  await expect(banner).toContainText('It will load once the evaluations saved on this device are sent.');
  await expect(banner).not.toContainText('Reloading in');

  // Once it is sent, the countdown starts.
  await page.unroute('/api/add-evaluation');
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(banner).toContainText(/Reloading in (30|29|28|27) s/, { timeout: 15_000 });
  const arrived = await s.env.db
    .selectFrom('evaluations')
    .select('id')
    .where('org_id', '=', team.org.id)
    .where('completed_at', 'is not', null)
    .execute();
  expect(arrived).toHaveLength(1);
});
