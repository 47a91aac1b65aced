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
