import { expect, test } from './fixtures.ts';

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

  version = null;
  const reloaded = page.waitForEvent('load');
  await banner.getByRole('button', { name: 'Reload Now' }).click();
  await reloaded;
  await expect(page.getByTestId('version-banner')).toHaveCount(0);
});
