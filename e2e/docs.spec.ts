import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  test.setTimeout(120_000); // a long journey: two modals, a reload and outside calls
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

test('an administrator adds a webhook, an evaluation is delivered signed, and the log shows it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000); // waits for the delivery loop (every 2 s) twice
  const received: { event: string; delivery: string; signature: string; body: string }[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({
        event: String(request.headers['checkboard-event']),
        delivery: String(request.headers['checkboard-delivery']),
        signature: String(request.headers['checkboard-signature']),
        body,
      });
      response.end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  try {
    const s = seed();
    const team = await s.team();
    const card = await s.card(team.org, { items: [{ type: 'pass_fail', content: '<p>Door shut</p>' }] });
    const board = await s.board(team.org, { cardIds: [card.id] });
    await signInAs(page, team.admin.cookie);
    await page.goto(`/q/${encodeURIComponent(team.org.name)}/docs`);
    const section = page.getByRole('region', { name: 'Manage webhooks' });
    await section.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByLabel('Endpoint URL').fill(url);
    await dialog.getByLabel('Description').fill('Quality ERP');
    await dialog.getByRole('checkbox', { name: /^evaluation\.failed/ }).check();
    await expectAccessible(page, 'new webhook');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    const shown = page.getByRole('dialog', { name: 'Your webhook signing secret' });
    const secret = (await shown.getByLabel('Signing secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(section.getByText('Quality ERP')).toBeVisible();

    // The evaluator fails the check, through the API as the app does.
    const asEvaluator = request;
    const headers = { cookie: team.evaluator.cookie, 'content-type': 'application/json' };
    const started = await asEvaluator.post('/api/add-evaluation', {
      headers,
      data: { boardID: board.id, cardID: card.id },
    });
    const evalID = (await started.json()).id;
    const done = await asEvaluator.post('/api/add-results', {
      headers,
      data: { evalID, results: [{ item_id: card.itemIds[0], pass: false }] },
    });
    expect(done.status()).toBe(200);

    await expect
      .poll(() => received.map((r) => r.event).sort(), { timeout: 15_000 })
      .toEqual(['evaluation.completed', 'evaluation.failed']);
    for (const got of received) {
      const t = /t=(\d+)/.exec(got.signature)![1];
      const expected = createHmac('sha256', secret).update(`${t}.${got.body}`).digest('hex');
      expect(got.signature).toBe(`t=${t},v1=${expected}`);
      expect(JSON.parse(got.body)).toMatchObject({ id: got.delivery, data: { evaluation: { id: evalID } } });
    }

    await section.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('dialog', { name: /^Deliveries to/ });
    await expect(log.getByText('Delivered')).toHaveCount(2);
    await expectAccessible(page, 'delivery log');
    await log.getByRole('button', { name: /^Send evaluation\.failed .* again$/ }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(3);
    expect(received[2]!.delivery).toBe(received.find((r) => r.event === 'evaluation.failed')!.delivery);
  } finally {
    receiver.close();
  }
});
