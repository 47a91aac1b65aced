import { expect, expectAccessible, seed, signInAs, test } from './fixtures.ts';

for (const path of ['/no/such/page', '/q/Some%20Org/no-such-page', '/q/Some%20Org/home/no-such-tab']) {
  test(`an unknown path shows Page Not Found: ${path}`, async ({ page }) => {
    const answer = await page.goto(path);
    expect(answer?.status()).toBe(200);
    if (path.startsWith('/q/')) {
      // An organisation's page first asks a visitor to sign in, then shows what is (not) there.
      await expect(page).toHaveURL(/\/login\?redirect=/);
      return;
    }
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page).toHaveTitle('Page Not Found · Checkboard');
    await expectAccessible(page);
  });
}

test('a member sees Page Not Found for an unknown path inside their organisation', async ({ page }) => {
  const team = await seed().team();
  await signInAs(page, team.viewer.cookie);
  const org = encodeURIComponent(team.org.name);
  for (const path of [`/q/${org}/no-such-page`, `/q/${org}/home/no-such-tab`, `/q/${org}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  }
  await expectAccessible(page);
});

test('admin and support say Coming soon.', async ({ page }) => {
  const team = await seed().team();
  await signInAs(page, team.owner.cookie);
  const org = encodeURIComponent(team.org.name);
  for (const [path, title] of [
    ['admin', 'Account Settings'],
    ['support', 'Support'],
  ] as const) {
    await page.goto(`/q/${org}/${path}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText('Coming soon.')).toBeVisible();
  }
  await expectAccessible(page);
});
