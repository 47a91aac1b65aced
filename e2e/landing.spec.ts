import { expect, expectAccessible, test } from './fixtures.ts';

test('a visitor reads the landing page and finds sign-up, sign-in and pricing', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Checkboard');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Every checklist');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: 'Sign up' })).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pricing' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('main').getByRole('link', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign Up' })).toBeVisible();
});

test('the top bar leads to pricing and sign-in', async ({ page, isMobile }) => {
  await page.goto('/');
  if (!isMobile) {
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Pricing', 'About', 'Documentation', 'Support'])
      await expect(nav.getByRole('link', { name })).toBeVisible();
    await nav.getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/plans$/);
  }
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot Password' })).toBeVisible();
  await expectAccessible(page);
});

test('the menu offers documentation, support, the theme and sign-in to a visitor', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('menu');
  for (const name of ['Documentation', 'Support', 'Sign in'])
    await expect(menu.getByRole('menuitem', { name })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: /Theme$/ })).toBeVisible();
  for (const name of ['Home', 'Analytics', 'Account Settings', 'Admin Mode', 'Sign out']) {
    await expect(menu.getByText(name, { exact: true })).toHaveCount(0);
  }
  await expectAccessible(page);
});

test('the menu works from the keyboard: opens at its first item, arrows move, Escape gives the focus back', async ({
  page,
}) => {
  await page.goto('/');
  const button = page.getByRole('button', { name: 'Menu' });
  await expect(button).toHaveAttribute('aria-haspopup', 'menu');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('menuitem', { name: 'Documentation' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Support' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  // The list loops: up from the first item is the last.
  await expect(menu.getByRole('menuitem', { name: 'Sign in' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(menu.getByRole('menuitem', { name: 'Documentation' })).toBeFocused();
  await page.keyboard.press('s');
  await expect(menu.getByRole('menuitem', { name: 'Support' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // ArrowUp on the button opens at the last item; Space on a link item follows it.
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Sign in' })).toBeFocused();
  await page.keyboard.press(' ');
  await expect(page).toHaveURL(/\/login$/);
  await expect(menu).toBeHidden();

  // A click outside closes it.
  await button.click();
  await expect(menu).toBeVisible();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(menu).toBeHidden();
});
