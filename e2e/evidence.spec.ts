/**
 * Issue 12's journey at phone width: an evaluator fails a check whose card asks for a photo, is told so on
 * the item, takes the photo (setInputFiles on the camera input), survives a failed upload with Retry
 * without losing the answers, adds a note, submits, and sees the photo and note in the evaluation modal.
 */
import { fileURLToPath } from 'node:url';
import { expect, expectAccessible, seed, signInAs, test } from './fixtures.ts';

const PHOTO = fileURLToPath(new URL('../server/modules/evidence/fixtures/photo.jpg', import.meta.url));
const suffix = () => Math.random().toString(36).slice(2, 7);

test('a failed check gets its photo and note, and the board shows them', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'a phone journey: the camera button is for phones');
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, {
    name: `Guard check ${suffix()}`,
    items: [
      { type: 'pass_fail', content: '<p>Guards in place</p>', photoOnFail: true, noteOnFail: true },
      { type: 'pass_fail', content: '<p>Floor is dry</p>' },
    ],
  });
  const board = await s.board(team.org, { name: `Press Line ${suffix()}`, cardIds: [card.id] });
  await signInAs(page, team.evaluator.cookie);

  await page.goto(`/q/${encodeURIComponent(team.org.name)}/boards/${encodeURIComponent(board.name)}`);
  await page.getByRole('link', { name: 'Evaluate' }).click();
  await page.getByRole('button', { name: new RegExp(card.name) }).click();
  await expect(page.getByRole('heading', { level: 1, name: card.name })).toBeVisible();

  const guardsItem = page.getByTestId('check').filter({ hasText: 'Guards in place' });
  const floor = page.getByRole('radiogroup', { name: 'Floor is dry' });
  await expect(guardsItem).toContainText('Needs a photo and a note when it fails.');
  const input = guardsItem.getByTestId('photo-input');
  await expect(input).toHaveAttribute('accept', 'image/*');
  await expect(input).toHaveAttribute('capture', 'environment');

  await page
    .getByRole('radiogroup', { name: 'Guards in place' })
    .getByRole('radio', { name: 'Fail' })
    .click();
  await floor.getByRole('radio', { name: 'Pass' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  // Told on the item and at Submit, before anything is sent.
  const needsPhoto = 'Add a photo to the failed item "Guards in place".';
  await expect(guardsItem.getByText(needsPhoto)).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: needsPhoto })).toBeVisible();
  await expect(page).toHaveURL(/\/\d+$/);

  // The first upload fails on the way: the photo says so and offers Retry; the answers stay as given.
  let refused = false;
  await page.route(/\/api\/add-result-photo\?/, async (route) => {
    if (!refused) {
      refused = true;
      await route.abort('connectionreset');
    } else await route.continue();
  });
  await input.setInputFiles(PHOTO);
  await expect(guardsItem.getByText('Unable to reach server. Please try again later')).toBeVisible();
  await expect(guardsItem.getByRole('radio', { name: 'Fail' })).toHaveAttribute('aria-checked', 'true');
  await expect(floor.getByRole('radio', { name: 'Pass' })).toHaveAttribute('aria-checked', 'true');
  await expectAccessible(page, 'evaluation with a failed upload');
  await guardsItem.getByRole('button', { name: 'Retry' }).click();
  await expect(guardsItem.getByRole('button', { name: 'Remove photo 1' })).toBeVisible();
  await expect(guardsItem.getByText('Unable to reach server')).toHaveCount(0);

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(guardsItem.getByText('Add a note to the failed item "Guards in place".')).toBeVisible();
  // The note grows with its lines (decision 0760), up to four rows, then scrolls.
  const note = guardsItem.getByRole('textbox', { name: 'Note' });
  const height = () => note.evaluate((el) => el.getBoundingClientRect().height);
  const oneRow = await height();
  await note.fill('a\nb\nc');
  await expect.poll(height).toBeGreaterThan(oneRow * 2);
  const threeRows = await height();
  await note.fill('a\nb\nc\nd\ne\nf\ng\nh');
  await expect.poll(height).toBeGreaterThan(threeRows);
  const most = await height();
  expect(most).toBeLessThan(oneRow * 4);
  expect(await note.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await note.fill('Short');
  await expect.poll(height).toBe(oneRow);
  await note.fill('Left guard missing on press 4');
  await expectAccessible(page, 'evaluation with photo and note');
  await page.getByRole('button', { name: 'Submit' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Evaluation submitted' })).toBeVisible();
  await page.getByRole('button', { name: 'Skip' }).click();

  // The board's red square opens the evaluation with the note and the photo's thumbnail.
  const square = page
    .getByTestId('card-results')
    .filter({ has: page.getByRole('heading', { name: card.name }) })
    .getByRole('button', { name: new RegExp(`^Fail, .+, by ${team.evaluator.email}$`) })
    .first();
  await square.click();
  const modal = page.getByRole('dialog', { name: card.name });
  const guards = modal.getByTestId('result').filter({ hasText: 'Guards in place' });
  await expect(guards).toContainText('Left guard missing on press 4');
  const thumbnail = guards.getByRole('img', { name: 'Photo 1, open full size' });
  await expect(thumbnail).toBeVisible();
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const link = guards.getByRole('link', { name: 'Photo 1, open full size' });
  const full = await page.request.get((await link.getAttribute('href'))!);
  expect(full.status()).toBe(200);
  expect(full.headers()['content-type']).toBe('image/jpeg');
  expect(full.headers()['x-content-type-options']).toBe('nosniff');
  await expectAccessible(page, 'evaluation modal with evidence');
});
