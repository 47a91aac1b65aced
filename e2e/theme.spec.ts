import { expect, expectAccessible, test } from './fixtures.ts';

test('the theme follows the system, and the chosen one survives a reload', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('menuitem', { name: 'Light Theme' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await expectAccessible(page, 'landing page, light');

  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('menuitem', { name: 'Dark Theme' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expectAccessible(page, 'landing page, dark');
  await context.close();
});
