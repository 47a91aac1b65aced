import { expect, expectAccessible, seed, signInAs, test } from './fixtures.ts';

const suffix = () => Math.random().toString(36).slice(2, 8);

test.describe('organisation time zone', () => {
  test.use({ timezoneId: 'Pacific/Auckland' });

  test('a new organisation starts in the zone of the browser it was signed up from', async ({ page }) => {
    const orgName = `Kiwi Dairy ${suffix()}`;
    await page.goto('/signup');
    await page.getByLabel('Organisation name').fill(orgName);
    await page.getByLabel('Email').fill(`owner-${suffix()}@example.com`);
    await page.getByLabel(/^Password/).fill('a long enough password');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
    const org = await seed()
      .env.db.selectFrom('organizations')
      .select('time_zone')
      .where('name', '=', orgName)
      .executeTakeFirstOrThrow();
    expect(org.time_zone).toBe('Pacific/Auckland');
  });

  test('the Owner finds the settings in the menu and changes the zone; an administrator cannot', async ({
    page,
  }) => {
    const team = await seed().team({ timeZone: 'Europe/London' });
    await signInAs(page, team.owner.cookie);
    await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('menuitem', { name: 'Organisation Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Organisation settings' })).toBeVisible();
    const zone = page.getByRole('combobox', { name: 'Organisation time zone' });
    await expect(zone).toHaveValue('Europe/London');
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
    await expectAccessible(page);

    // The device's own zone is one click away.
    await page.getByRole('button', { name: 'Use this device’s zone (Pacific/Auckland)' }).click();
    await expect(zone).toHaveValue('Pacific/Auckland');
    // Or any zone, by typing part of its name.
    await zone.fill('Tokyo');
    await page.getByRole('option', { name: 'Asia/Tokyo' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Organisation time zone' })).toHaveValue('Asia/Tokyo');
    await expectAccessible(page);

    await page.context().clearCookies();
    await signInAs(page, team.admin.cookie);
    await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Account Settings' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: 'Organisation Settings' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto(`/q/${encodeURIComponent(team.org.name)}/settings`);
    await expect(page.getByRole('combobox', { name: 'Organisation time zone' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Organisation settings');
  });
});
