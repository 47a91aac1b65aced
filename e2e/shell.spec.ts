import type { Route } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';

/**
 * The page's frame (decision 0770): index.html paints the header's logo and name before the app's script has
 * arrived, in the chosen theme, exactly where the app then draws them.
 */
for (const scheme of ['light', 'dark'] as const) {
  test.describe(scheme, () => {
    test.use({ colorScheme: scheme });
    test(`the frame is painted before the app's script, where the app draws it (${scheme})`, async ({
      page,
    }) => {
      // Mantine's xs breakpoint: the name shows from 576 px (the desktop project), the logo alone below (the phone).
      const nameShown = page.viewportSize()!.width >= 576;
      // The app's script is held back until the frame has been looked at.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/index-[^/]*\.js$/, async (route: Route) => {
        await held;
        await route.continue();
      });
      await page.goto('/login', { waitUntil: 'commit' });

      const header = page.locator('header').first();
      const logo = header.locator('svg').first();
      await expect(logo).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
      await expect(header.getByText('Checkboard', { exact: true })).toBeVisible({ visible: nameShown });
      const entry = page.locator('script[type="module"]');
      await expect(entry).toHaveAttribute('fetchpriority', 'low');
      const before = {
        logo: await logo.boundingBox(),
        name: nameShown ? await header.getByText('Checkboard', { exact: true }).boundingBox() : null,
        background: await header.evaluate((e) => getComputedStyle(e).backgroundColor),
        height: await header.evaluate((e) => e.getBoundingClientRect().height),
      };
      expect(before.background).toBe(scheme === 'dark' ? 'rgb(36, 36, 36)' : 'rgb(255, 255, 255)');
      await expectAccessible(page, `the frame before the script, ${scheme}`);

      release();
      await expect(page.getByRole('button', { name: 'Sign in' }).first()).toBeVisible();
      const appHeader = page.getByRole('banner');
      const home = appHeader.getByRole('link', { name: 'Checkboard home' });
      expect(await home.locator('svg').boundingBox()).toEqual(before.logo);
      if (nameShown) expect(await home.getByText('Checkboard').boundingBox()).toEqual(before.name);
      expect(await appHeader.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(before.background);
      expect(await appHeader.evaluate((e) => e.getBoundingClientRect().height)).toBe(before.height);
      await expectAccessible(page, `the sign-in page after the frame, ${scheme}`);
    });
  });
}
