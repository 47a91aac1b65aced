/**
 * Issue 13's journeys, at desktop and phone sizes: an evaluator answers a card that requires sign-off, is
 * told what is missing, draws a signature with the pointer and types a name, submits, and downloads the
 * PDF report from the evaluation modal (read back: the name and card are in it); an administrator makes a
 * share link there, and it opens the report with no session at all.
 */
import { request as playwrightRequest, type Locator, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { signOffMessages } from '../common/signOff.ts';
import { readPdf } from '../server/modules/reports/readPdf.ts';
import { expect, expectAccessible, seed, signInAs, test } from './fixtures.ts';

const suffix = () => Math.random().toString(36).slice(2, 7);

/** Draws a stroke across the signature box with mouse moves. */
async function drawSignature(page: Page) {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 20, y);
  await page.mouse.down();
  for (let step = 1; step <= 12; step++)
    await page.mouse.move(box.x + 20 + step * ((box.width - 40) / 12), y + (step % 2 ? -30 : 30), {
      steps: 3,
    });
  await page.mouse.up();
}

async function openEvaluationModal(page: Page, org: string, board: string, card: string, who: string) {
  await page.goto(`/q/${encodeURIComponent(org)}/boards/${encodeURIComponent(board)}`);
  await page
    .getByTestId('card-results')
    .filter({ has: page.getByRole('heading', { name: card }) })
    .getByRole('button', { name: new RegExp(`^Pass, .+, by ${who}$`) })
    .first()
    .click();
  return page.getByRole('dialog', { name: card });
}

test('an evaluator signs off a card and downloads its PDF report; a share link opens it signed out', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000); // a long journey: two sign-in contexts, a download and outside requests
  const s = seed();
  const team = await s.team({ name: `Société Ñandú ${suffix()}` });
  const card = await s.card(team.org, {
    name: `Forklift sign-off ${suffix()}`,
    signOffRequired: true,
    items: [
      { type: 'instruction', content: '<p>Walk round the truck.</p>' },
      { type: 'pass_fail', content: '<p>Brakes hold</p>' },
    ],
  });
  const board = await s.board(team.org, { name: `Dock ${suffix()}`, cardIds: [card.id] });
  await signInAs(page, team.evaluator.cookie);

  await page.goto(`/q/${encodeURIComponent(team.org.name)}/boards/${encodeURIComponent(board.name)}`);
  await page.getByRole('link', { name: 'Evaluate' }).click();
  await page.getByRole('button', { name: new RegExp(card.name) }).click();
  await expect(page.getByRole('heading', { level: 1, name: card.name })).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Brakes hold' }).getByRole('radio', { name: 'Pass' }).click();

  // The box is labelled, Clear is a button, the name a text field.
  const signOff = page.getByTestId('sign-off');
  await expect(signOff.getByRole('img', { name: 'Signature' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert').filter({ hasText: signOffMessages.missingBoth })).toBeVisible();
  await expectAccessible(page, 'evaluation needing sign-off');

  await drawSignature(page);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert').filter({ hasText: signOffMessages.missingName })).toBeVisible();
  // Clear empties the box: the signature is missing again.
  await signOff.getByRole('button', { name: 'Clear signature' }).click();
  await signOff.getByRole('textbox', { name: 'Your name' }).fill('Zoë Tester');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert').filter({ hasText: signOffMessages.missingSignature })).toBeVisible();
  await drawSignature(page);
  await expectAccessible(page, 'evaluation signed');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Evaluation submitted' })).toBeVisible();
  await page.getByRole('button', { name: 'Skip' }).click();

  // The report, from the evaluation modal on the board.
  let modal = await openEvaluationModal(page, team.org.name, board.name, card.name, team.evaluator.email);
  await expect(modal.getByRole('button', { name: 'Download report (PDF)' })).toBeVisible();
  await expectAccessible(page, 'evaluation modal with its report');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    modal.getByRole('button', { name: 'Download report (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^evaluation-\d+-report\.pdf$/);
  const file = await readFile((await download.path())!);
  expect(file.subarray(0, 5).toString()).toBe('%PDF-');
  const pdf = await readPdf(file);
  expect(pdf.text).toContain('Zoë Tester');
  expect(pdf.text).toContain(card.name);
  expect(pdf.text).toContain(team.org.name);
  expect(pdf.text).toContain('PASS');
  // The evaluator makes no share links.
  await expect(modal.getByRole('button', { name: 'Make share link' })).toHaveCount(0);

  // An administrator makes a share link; it opens the report without any session.
  const admin = await browser.newContext({ baseURL });
  const adminPage = await admin.newPage();
  await signInAs(adminPage, team.admin.cookie);
  modal = await openEvaluationModal(adminPage, team.org.name, board.name, card.name, team.evaluator.email);
  await modal.getByRole('button', { name: 'Make share link' }).click();
  const link = await modal.getByTestId('share-link').inputValue();
  expect(link).toMatch(/\/api\/shared\/report\.pdf\?token=cbr_/);
  await expect(modal.getByRole('table', { name: 'Share links' })).toContainText('Active');
  await expectAccessible(adminPage, 'evaluation modal with a share link');

  const stranger = await playwrightRequest.newContext();
  const shared = await stranger.get(link);
  expect(shared.status()).toBe(200);
  expect(shared.headers()['content-type']).toBe('application/pdf');
  const sharedPdf = await readPdf(await shared.body());
  expect(sharedPdf.text).toContain('Zoë Tester');

  // Revoked, it opens nothing.
  await modal.getByRole('button', { name: /^Revoke share link/ }).click();
  await expect(modal.getByRole('table', { name: 'Share links' })).toContainText('Revoked');
  expect((await stranger.get(link)).status()).toBe(404);
  await stranger.dispose();
  await admin.close();
});

test('a visitor with the QR code signs off too before the results are taken', async ({
  page,
  browser,
  baseURL,
}) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, {
    name: `Visitor sign-off ${suffix()}`,
    signOffRequired: true,
    items: [{ type: 'pass_fail', content: '<p>Gate is shut</p>' }],
  });
  const board = await s.board(team.org, {
    name: `Gatehouse ${suffix()}`,
    hasAnonymous: true,
    cardIds: [card.id],
  });
  await signInAs(page, team.viewer.cookie);
  const answer = await page.request.post('/api/get-anonymous-evaluation-key', {
    data: { boardID: board.id },
  });
  expect(answer.status()).toBe(200);
  const { key } = (await answer.json()) as { key: string };

  const visitor = await browser.newContext({ baseURL });
  const phone = await visitor.newPage();
  const enc = encodeURIComponent;
  await phone.goto(`/q/${enc(team.org.name)}/boards/${enc(board.name)}/${board.id}/eval/${key}`);
  await phone.getByRole('button', { name: new RegExp(card.name) }).click();
  await phone.getByRole('radiogroup', { name: 'Gate is shut' }).getByRole('radio', { name: 'Pass' }).click();
  await phone.getByRole('button', { name: 'Submit' }).click();
  await expect(phone.getByRole('alert').filter({ hasText: signOffMessages.missingBoth })).toBeVisible();
  await drawSignature(phone);
  await phone.getByTestId('sign-off').getByRole('textbox', { name: 'Your name' }).fill('Visiteur Ångström');
  await expectAccessible(phone, 'anonymous evaluation signed');
  await phone.getByRole('button', { name: 'Submit' }).click();
  await expect(phone.getByRole('heading', { name: 'Results submitted' })).toBeVisible();

  const row = await s.env.db
    .selectFrom('evaluations')
    .select(['id', 'signed_name', 'completed_at'])
    .where('org_id', '=', team.org.id)
    .where('card_id', '=', card.id)
    .executeTakeFirstOrThrow();
  expect(row.signed_name).toBe('Visiteur Ångström');
  expect(row.completed_at).not.toBeNull();
  const signature = await s.env.db
    .selectFrom('evaluation_signatures')
    .select('id')
    .where('org_id', '=', team.org.id)
    .where('evaluation_id', '=', row.id)
    .execute();
  expect(signature).toHaveLength(1);
  await visitor.close();
});

/** Presses Tab (Shift+Tab when `back`) until `target` has the focus: it is reachable by keyboard. */
async function tabTo(page: Page, target: Locator, back = false) {
  for (let presses = 0; presses < 80; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`could not reach ${target} with the keyboard`);
}

test('a keyboard-only evaluator types a signature, submits, and the report carries the signature image', async ({
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, {
    name: `Keyboard sign-off ${suffix()}`,
    signOffRequired: true,
    items: [{ type: 'pass_fail', content: '<p>Exit is clear</p>' }],
  });
  const board = await s.board(team.org, { name: `Stairwell ${suffix()}`, cardIds: [card.id] });
  await signInAs(page, team.evaluator.cookie);
  const enc = encodeURIComponent;
  await page.goto(`/q/${enc(team.org.name)}/boards/${enc(board.name)}/${board.id}/eval`);

  // From here on, only the keyboard: Tab, Shift+Tab, arrows, Space, Enter and typing.
  const cardButton = page.getByRole('button', { name: new RegExp(card.name) });
  await expect(cardButton).toBeVisible();
  await tabTo(page, cardButton);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: card.name })).toBeVisible();
  const pass = page.getByRole('radiogroup', { name: 'Exit is clear' }).getByRole('radio', { name: 'Pass' });
  await tabTo(page, pass);
  await page.keyboard.press('Space');
  await expect(pass).toBeChecked();

  const signOff = page.getByTestId('sign-off');
  // How to sign: a radio group, Draw (chosen) or Type.
  const how = signOff.getByRole('radiogroup', { name: 'How to sign' });
  const typeChoice = how.getByRole('radio', { name: 'Type', exact: true });
  const drawChoice = how.getByRole('radio', { name: 'Draw', exact: true });
  await expect(drawChoice).toBeChecked();
  await tabTo(page, drawChoice);
  await page.keyboard.press('ArrowRight');
  await expect(typeChoice).toBeChecked();
  const typedField = signOff.getByRole('textbox', { name: 'Type your signature' });
  await tabTo(page, typedField);
  await page.keyboard.type('Kim Keyboard');
  await expect(signOff.getByRole('img', { name: 'Signature: Kim Keyboard' })).toBeVisible();
  // What is typed is drawn into the box: it has dark pixels.
  const inked = await signOff.getByTestId('typed-signature-preview').evaluate((canvas: HTMLCanvasElement) => {
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let dark = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 128) dark += 1;
    return dark;
  });
  expect(inked).toBeGreaterThan(200);
  await signOff.screenshot({ path: test.info().outputPath('typed-signature.png') });
  await expectAccessible(page, 'sign-off with a typed signature');

  // Submitting without the name is refused with the sign-off's message; then the name, and Enter.
  const submit = page.getByRole('button', { name: 'Submit' });
  await tabTo(page, submit);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: signOffMessages.missingName })).toBeVisible();
  const nameField = signOff.getByRole('textbox', { name: 'Your name' });
  await tabTo(page, nameField, true);
  await page.keyboard.type('Kim Keyboard');
  await tabTo(page, submit);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Evaluation submitted' })).toBeVisible();

  // The server received a PNG like a drawn one; the report embeds it (the card has no photos: the one
  // image is the signature) beside the typed name.
  const row = await s.env.db
    .selectFrom('evaluations')
    .select(['id', 'signed_name', 'completed_at'])
    .where('org_id', '=', team.org.id)
    .where('card_id', '=', card.id)
    .executeTakeFirstOrThrow();
  expect(row.signed_name).toBe('Kim Keyboard');
  expect(row.completed_at).not.toBeNull();
  const report = await page.request.get(`/api/evaluations/report.pdf?evalID=${row.id}`);
  expect(report.status()).toBe(200);
  const pdf = await readPdf(await report.body());
  expect(pdf.text).toContain('Signed by');
  expect(pdf.text).toContain('Kim Keyboard');
  expect(pdf.imageObjects).toBe(1);
  expect(pdf.pages.reduce((sum, p) => sum + p.images, 0)).toBe(1);
});
