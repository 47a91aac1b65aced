/**
 * Single sign-on (issue 14, docs/decisions/0720): the Owner turns SSO on against a real OpenID Connect
 * provider (oidc-provider, started here), signs out; a new person signs in with SSO at the provider's
 * login and consent pages and lands in the organisation as a member with the default role.
 */
import { SSO_CALLBACK_PATH } from '../common/sso.ts';
import { startTestProvider, type TestProvider } from '../server/test/oidcProvider.ts';
import { unique } from '../server/test/factories.ts';
import { expect, expectAccessible, seed, signInAs, test } from './fixtures.ts';

const CLIENT = { client_id: 'checkboard-e2e', client_secret: 'checkboard-e2e-client-secret' };
let provider: TestProvider;

test.beforeAll(async () => {
  const appUrl = String(test.info().project.use.baseURL);
  provider = await startTestProvider({
    clients: [{ ...CLIENT, redirect_uris: [`${appUrl}${SSO_CALLBACK_PATH}`] }],
  });
});
test.afterAll(async () => provider?.close());

test('the Owner turns SSO on; a new person signs in with it and joins as an Evaluator', async ({ page }) => {
  const team = await seed().team();
  const org = encodeURIComponent(team.org.name);
  await signInAs(page, team.owner.cookie);
  await page.goto(`/q/${org}/settings`);
  await expect(page.getByRole('heading', { level: 1, name: 'Organisation settings' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Single sign-on (OpenID Connect)' });
  await expect(form.getByTestId('sso-redirect-uri')).toHaveText(/\/api\/sso\/callback$/);
  await expect(form.getByText('Not set.')).toBeVisible();
  await expectAccessible(page, 'organisation settings');

  // A plain mistake first: the message is shown by the field, nothing is saved.
  await form.getByLabel('Turn on single sign-on').check();
  await form.getByRole('textbox', { name: 'Issuer URL' }).fill(provider.issuer);
  await form.getByRole('button', { name: 'Save single sign-on settings' }).click();
  await expect(form.getByText('Enter the client ID.')).toBeVisible();
  await expectAccessible(page, 'organisation settings with an error');

  await form.getByRole('textbox', { name: 'Client ID' }).fill(CLIENT.client_id);
  await form.getByLabel('Client secret').fill(CLIENT.client_secret);
  await form
    .getByRole('radiogroup', { name: 'Role of members added at their first sign-in' })
    .getByRole('radio', { name: 'Evaluator' })
    .check();
  await form.getByRole('button', { name: 'Save single sign-on settings' }).click();
  await expect(form.getByRole('status')).toHaveText('Single sign-on settings saved.');
  await expect(form.getByText('Set. Leave empty to keep it, or enter a new one.')).toBeVisible();
  await expect(form.getByLabel('Client secret')).toHaveValue('');

  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(new RegExp(`/q/${org}/login$`));

  // A person the organisation has never seen, known to the provider.
  const email = `${unique('sso')}@example.com`;
  const accountId = unique('person');
  provider.accounts.set(accountId, { email, email_verified: true });
  const sso = page.getByRole('button', { name: 'Sign in with SSO' });
  await expect(sso).toBeVisible();
  await expectAccessible(page, 'sign-in page with SSO');
  await sso.click();

  // The provider's own (development) login and consent pages.
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(accountId);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(new RegExp(`/q/${org}/home`));
  await expect(page.getByRole('tablist', { name: 'Home' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Evaluations' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Cards' })).toHaveCount(0);
  const member = await seed()
    .env.db.selectFrom('users')
    .select(['role', 'password_hash', 'email_verified'])
    .where('org_id', '=', team.org.id)
    .where('email', '=', email)
    .executeTakeFirst();
  expect(member).toEqual({ role: 'evaluator', password_hash: null, email_verified: 1 });
});

test('a refused SSO sign-in comes back to the sign-in page with a readable message', async ({ page }) => {
  const team = await seed().team();
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/login?sso=domain`);
  await expect(page.getByRole('alert')).toHaveText(
    'Your email address’s domain is not allowed to join this organisation.',
  );
  // SSO is off for this organisation: no button.
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with SSO' })).toHaveCount(0);
  await expectAccessible(page, 'sign-in page with an SSO failure');
});
