import { expect, expectAccessible, seed, signInAs, test } from './fixtures.ts';

test('a member reads the API reference: every call, who may make it, its fields and errors', async ({
  page,
  request,
}) => {
  const document = await (await request.get('/api/openapi.json')).json();
  const operations = Object.values(document.paths as Record<string, object>).flatMap((m) => Object.keys(m));
  expect(operations.length).toBeGreaterThan(60);

  const team = await seed().team();
  await signInAs(page, team.viewer.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/docs`);
  await expect(page.getByRole('heading', { level: 1, name: 'Documentation' })).toBeVisible();
  await expect(page.getByText('Coming soon.')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /calls$/ })).toHaveText(
    `${operations.length} calls`,
  );
  // Every call is listed, under its area.
  await expect(page.getByRole('button', { name: /\/api\// })).toHaveCount(operations.length);
  await expect(page.getByRole('heading', { level: 2, name: 'Boards' })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Find a call').fill('add-board');
  await expect(page.getByRole('status').filter({ hasText: /call/ })).toHaveText('1 call');
  await page.getByRole('button', { name: /POST\s*\/api\/add-board/ }).click();
  await expect(page.getByText('Who may call: Administrators and Owners.')).toBeVisible();
  const body = page.getByRole('table', { name: 'Request body (JSON)' });
  await expect(
    body.getByRole('row', { name: /name\s+string\s+Yes\s+trimmed; 1-100 characters; none of !/ }),
  ).toBeVisible();
  await expect(body.getByRole('row', { name: /hasAnonymous\s+boolean\s+Yes/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Answer (JSON)' }).getByText('board.cardIDs')).toBeVisible();
  await expect(page.getByText('The Idempotency-Key was used before with a different body.')).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Find a call').fill('no such call at all');
  await expect(page.getByRole('status').filter({ hasText: /calls/ })).toHaveText('0 calls');
});

test('an administrator makes an API token, another system uses it, and revoking it stops it', async ({
  page,
  request,
}) => {
  const team = await seed().team();
  await signInAs(page, team.admin.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/docs`);
  const tokens = page.getByRole('region', { name: 'Manage API tokens' });
  await expect(tokens.getByText('No API tokens yet.')).toBeVisible();

  await tokens.getByRole('button', { name: 'New API token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect(dialog.getByText('Name must be between 1 and 30 characters long.')).toBeVisible();
  await dialog.getByLabel('Name').fill('Warehouse BI');
  await dialog.getByRole('radio', { name: /Read only/ }).check();
  await expectAccessible(page, 'new API token');
  await dialog.getByRole('button', { name: 'Create token' }).click();

  const shown = page.getByRole('dialog', { name: 'Your new API token' });
  await expect(shown.getByText('This is the only time the token is shown.')).toBeVisible();
  const secret = (await shown.getByLabel('API token').textContent())!.trim();
  expect(secret).toMatch(/^cbt_/);
  await expectAccessible(page, 'the token shown once');
  await shown.getByRole('button', { name: 'Done' }).click();

  const row = tokens.getByRole('row', { name: /Warehouse BI/ });
  await expect(row).toContainText('Read only');
  await expect(row).not.toContainText(secret);

  const asTool = (path: string, data: object) =>
    request.post(path, { headers: { Authorization: `Bearer ${secret}` }, data });
  expect((await asTool('/api/get-boards', {})).status()).toBe(200);
  const write = await asTool('/api/add-board', { name: 'From a script', cardIDs: [], hasAnonymous: false });
  expect(write.status()).toBe(403);
  expect((await write.json()).errMsg).toBe('This API token is read-only.');

  await page.reload();
  await expect(tokens.getByRole('row', { name: /Warehouse BI/ })).not.toContainText('Never', {
    timeout: 10_000,
  });
  await tokens.getByRole('button', { name: 'Revoke Warehouse BI' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke Warehouse BI' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(tokens.getByText('No API tokens yet.')).toBeVisible();
  expect((await asTool('/api/get-boards', {})).status()).toBe(401);
});

test('a viewer reads the reference but sees no API tokens', async ({ page }) => {
  const team = await seed().team();
  await signInAs(page, team.viewer.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/docs`);
  await expect(page.getByRole('heading', { level: 2, name: 'Boards' })).toBeVisible();
  // The reference still lists the token calls (an area of their own), but there is nothing to manage.
  await expect(page.getByRole('region', { name: 'API tokens' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New API token' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Manage API tokens' })).toHaveCount(0);
});
