import { expect, expectAccessible, linkFromMail, seed, signInAs, test } from './fixtures.ts';
import { DEFAULT_PASSWORD } from '../server/test/factories.ts';

const suffix = () => Math.random().toString(36).slice(2, 8);

test('sign up, verify from the email, subscribe, and land on home', async ({ page }) => {
  const orgName = `Harbour Foods ${suffix()}`;
  const email = `owner-${suffix()}@example.com`;
  await page.goto('/signup');
  await expectAccessible(page);

  // The form checks SPEC §5's rules before calling the server.
  await page.getByLabel('Organisation name').fill('Acme');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel(/^Password/).fill('short');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('Name must be at least 5 characters long.')).toBeVisible();
  await expect(page.getByText('Invalid email address.')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible();

  await page.getByLabel('Organisation name').fill(orgName);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill('a long enough password');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  const link = await linkFromMail(email, '/verify?token=');
  await page.goto(link);
  await expect(page.getByText('Your email address is verified.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Sign in' }).last().click();
  await expect(page).toHaveURL(new RegExp(`/q/${encodeURIComponent(orgName).replace(/%20/g, '%20')}/login$`));

  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill('a long enough password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  // An Owner of an unpaid organisation is sent to the plans.
  await expect(page).toHaveURL(/\/plans$/);
  await page.getByLabel('Number of departments').fill('3');
  await expect(page.getByText('$30 per month')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Subscribe' }).click();

  await expect(page).toHaveURL(new RegExp(`/q/${encodeURIComponent(orgName)}/home$`));
  const tabs = page.getByRole('tablist', { name: 'Home' });
  for (const name of ['Boards', 'Cards', 'Evaluations', 'Feedback', 'Users'])
    await expect(tabs.getByRole('tab', { name })).toBeVisible();
});

test('a failed sign-in shows the server message and marks both fields red', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Email is required.')).toBeVisible();
  await expect(page.getByText('Password is required.')).toBeVisible();

  await page.getByLabel('Email').fill(`nobody-${suffix()}@example.com`);
  await page.getByLabel(/^Password/).fill('wrong password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password.');
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel(/^Password/)).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
});

test('forgot and reset the password', async ({ page }) => {
  const team = await seed().team();
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/login`);
  await page.getByRole('link', { name: 'Forgot Password' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
  await page.getByLabel('Email').fill(team.evaluator.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(`If an account exists for ${team.evaluator.email}`)).toBeVisible();
  await expectAccessible(page);

  await page.goto(await linkFromMail(team.evaluator.email, '/reset-password/'));
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await page.getByLabel('Email').fill(team.evaluator.email);
  await page.getByLabel(/^Password/).fill('my new password');
  await page.getByLabel('Re-enter Password').fill('my other password');
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Re-enter Password').fill('my new password');
  await page.getByRole('button', { name: 'Reset' }).click();

  await expect(page).toHaveURL(new RegExp(`/q/${encodeURIComponent(team.org.name)}/login$`));
  await page.getByLabel('Email').fill(team.evaluator.email);
  await page.getByLabel(/^Password/).fill('my new password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`/q/${encodeURIComponent(team.org.name)}/home$`));
});

test('an admin adds an evaluator, who accepts the invitation and sees only the evaluator tabs', async ({
  page,
  browser,
}) => {
  const team = await seed().team();
  await signInAs(page, team.admin.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/home/users`);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('cell', { name: team.viewer.email, exact: true })).toBeVisible();
  await expectAccessible(page);

  const email = `new-evaluator-${suffix()}@example.com`;
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog.getByRole('radio', { name: 'Owner' })).toBeDisabled();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('radio', { name: 'Evaluator' }).check();
  await expectAccessible(page, 'add user dialog');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(email) });
  await expect(row).toContainText('Evaluator');
  await expect(row).toContainText('Invited');

  const invitee = await browser.newPage();
  await invitee.goto(await linkFromMail(email, '/reset-password/'));
  await expect(invitee.getByText('Choose the password you will sign in with.')).toBeVisible();
  await invitee.getByLabel('Email').fill(email);
  await invitee.getByLabel(/^Password/).fill('evaluator password');
  await invitee.getByLabel('Re-enter Password').fill('evaluator password');
  await invitee.getByRole('button', { name: 'Reset' }).click();
  await expect(invitee).toHaveURL(new RegExp(`/q/${encodeURIComponent(team.org.name)}/login$`));
  await invitee.getByLabel('Email').fill(email);
  await invitee.getByLabel(/^Password/).fill('evaluator password');
  await invitee.getByRole('button', { name: 'Sign In' }).click();
  const tabs = invitee.getByRole('tablist', { name: 'Home' });
  await expect(tabs.getByRole('tab', { name: 'Evaluations' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Feedback' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Boards' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Cards' })).toHaveCount(0);
  await expect(tabs.getByRole('tab', { name: 'Users' })).toHaveCount(0);
  // The menu shows what an evaluator may use, and nothing an admin's.
  await invitee.getByRole('button', { name: 'Menu' }).click();
  await expect(invitee.getByRole('menuitem', { name: 'Home' })).toBeVisible();
  await expect(invitee.getByRole('menuitem', { name: 'Analytics' })).toHaveCount(0);
  await expect(invitee.getByRole('menuitemcheckbox', { name: 'Admin Mode' })).toHaveCount(0);
  await expect(invitee.getByRole('menuitem', { name: 'Account Settings' })).toHaveCount(0);
  await invitee.close();
});

test('an expired session brings the login modal, and signing in again keeps the page and its input', async ({
  page,
  context,
}) => {
  const team = await seed().team();
  await signInAs(page, team.admin.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/home/users`);
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('Email').fill('half-typed@example.com');

  // The session ends: its expiry cookie says so, and the 5-second check notices.
  const url = new URL(page.url());
  await context.addCookies([
    { name: 'session_expiry', value: String(Date.now() - 1000), domain: url.hostname, path: '/' },
  ]);
  const modal = page.getByRole('dialog', { name: 'Sign in to continue' });
  await expect(modal).toBeVisible({ timeout: 8_000 });
  await expect(modal.getByRole('alert')).toHaveText('Your session has expired. Please sign in again.');
  await expectAccessible(page, 'login modal');

  await modal.getByLabel('Email').fill(team.admin.email);
  await modal.getByLabel(/^Password/).fill(DEFAULT_PASSWORD);
  await modal.getByRole('button', { name: 'Sign In' }).click();
  await expect(modal).toBeHidden();
  await expect(page).toHaveURL(/\/home\/users$/);
  await expect(dialog.getByLabel('Email')).toHaveValue('half-typed@example.com');
});

test('signing out in one tab signs out the other', async ({ page, context }) => {
  const team = await seed().team();
  await signInAs(page, team.viewer.cookie);
  const home = `/q/${encodeURIComponent(team.org.name)}/home`;
  await page.goto(home);
  const other = await context.newPage();
  await other.goto(home);
  await expect(other.getByRole('tablist', { name: 'Home' })).toBeVisible();

  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(new RegExp(`/q/${encodeURIComponent(team.org.name)}/login$`));
  await expect(other).toHaveURL(new RegExp(`/q/${encodeURIComponent(team.org.name)}/login$`));
  await expect(other.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
});

test('an unpaid organisation sees only the unpaid notice', async ({ page }) => {
  const team = await seed().team({ paid: false });
  await signInAs(page, team.evaluator.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
  await expect(page.getByRole('heading', { name: 'Your account is unpaid.' })).toBeVisible();
  await expect(
    page.getByText(`Contact the owner of ${team.org.name} to resume the subscription.`),
  ).toBeVisible();
  await expect(page.getByRole('tablist')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Reset it here' })).toBeVisible();
  await expectAccessible(page);

  const owner = await page.context().browser()!.newPage();
  await signInAs(owner, team.owner.cookie);
  await owner.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
  await expect(owner.getByText('Resume the subscription in the admin panel')).toBeVisible();
  await expect(owner.getByRole('link', { name: 'Resume subscription' })).toBeVisible();
  await owner.close();
});
