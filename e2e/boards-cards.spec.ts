import type { Page } from '@playwright/test';
import { expect, expectAccessible, seed, signInAs, test } from './fixtures.ts';

const suffix = () => Math.random().toString(36).slice(2, 7);

async function adminMode(page: Page) {
  await page.getByRole('button', { name: 'Menu' }).click();
  const toggle = page.getByRole('menuitemcheckbox', { name: 'Admin Mode' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Create a new Board' })).toBeVisible();
  await page.keyboard.press('Escape');
}

async function addItem(page: Page, type: 'Instruction' | 'Pass/Fail', text: string, allowNa = false) {
  await page.getByRole('button', { name: 'Add item' }).click();
  await page.getByRole('radiogroup', { name: 'Item type' }).getByText(type, { exact: true }).click();
  const editor = page.getByRole('textbox', {
    name: type === 'Instruction' ? 'Instruction' : 'What is checked',
  });
  await editor.click();
  await editor.pressSequentially(text);
  if (allowNa) await page.getByRole('switch', { name: 'Allow N/A' }).last().check();
  await page.getByRole('button', { name: 'Add item' }).click();
  await expect(page.getByTestId('card-item').filter({ hasText: text })).toBeVisible();
}

test('an admin builds two cards, meets each naming rule, and reorders items from the keyboard', async ({
  page,
}) => {
  const team = await seed().team();
  const org = encodeURIComponent(team.org.name);
  await signInAs(page, team.admin.cookie);
  await page.goto(`/q/${org}/home`);
  await expect(page.getByText('You have not added any boards yet.')).toBeVisible();
  await expect(page.getByText('Unlock admin mode from the menu.')).toBeVisible();
  await expectAccessible(page, 'empty boards panel');

  // The first card: name rules first, then items of both offered types.
  await page.getByRole('tab', { name: 'Cards' }).click();
  await expect(page.getByText('You have not created any cards yet.')).toBeVisible();
  await page.getByRole('link', { name: 'New Card' }).click();
  await page.getByRole('button', { name: 'Create card' }).click();
  await expect(page.getByText('Name must be between 1 and 100 characters long.')).toBeVisible();
  await page.getByLabel('Card name').fill('Start-up / Line 2');
  await page.getByRole('button', { name: 'Create card' }).click();
  await expect(page.getByText('Name contains invalid characters: /')).toBeVisible();
  await page.getByLabel('Card name').fill('Line 2 start-up');
  await page.getByRole('button', { name: 'Create card' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Line 2 start-up' })).toBeVisible();
  await expect(page).toHaveURL(/\/home\/cards\/new\/\d+$/);
  await expectAccessible(page, 'card builder, empty');

  await addItem(page, 'Instruction', 'Switch the conveyor to manual.');
  await addItem(page, 'Pass/Fail', 'Guards are in place');
  await addItem(page, 'Pass/Fail', 'Floor is dry', true);
  await expectAccessible(page, 'card builder with items');
  const items = page.getByTestId('card-item');
  await expect(items).toHaveCount(3);
  await expect(items.nth(2)).toContainText('Floor is dry');
  await expect(items.nth(2).getByRole('switch', { name: 'Allow N/A' })).toBeChecked();
  // Reorder from the keyboard: the last check moves up.
  await page.getByRole('button', { name: 'Move item 3 up' }).focus();
  await page.keyboard.press('Enter');
  await expect(items.nth(1)).toContainText('Floor is dry');
  await page.reload();
  await expect(page.getByTestId('card-item').nth(1)).toContainText('Floor is dry');

  // A second card; its name may not repeat the first in any case.
  await page.getByRole('link', { name: 'Done' }).click();
  await page.getByRole('link', { name: 'New Card' }).click();
  await page.getByLabel('Card name').fill('LINE 2 START-UP');
  await page.getByRole('button', { name: 'Create card' }).click();
  await expect(page.getByText('The name already exists.')).toBeVisible();
  await page.getByLabel('Card name').fill('Forklift pre-use');
  await page.getByRole('button', { name: 'Create card' }).click();
  await addItem(page, 'Pass/Fail', 'Horn works');
  await page.getByRole('link', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: /Forklift pre-use/ })).toContainText('Not on a board');
  await expectAccessible(page, 'cards list');
});

test('an admin makes a board of two cards, renames it, meets each message, and deletes a card and the board', async ({
  page,
}) => {
  const team = await seed().team();
  const org = encodeURIComponent(team.org.name);
  await seed().card(team.org, { name: 'Line 2 start-up' });
  await seed().card(team.org, { name: 'Forklift pre-use' });
  await signInAs(page, team.admin.cookie);
  await page.goto(`/q/${org}/home`);
  await expect(page.getByText('You have not added any boards yet.')).toBeVisible();

  // A board of both cards.
  await adminMode(page);
  await page.getByRole('button', { name: 'Create a new Board' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Board' });
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Name must be between 1 and 100 characters long.')).toBeVisible();
  await dialog.getByLabel('Name').fill('Packing Hall');
  await dialog.getByRole('checkbox', { name: 'Line 2 start-up' }).check();
  await dialog.getByRole('checkbox', { name: 'Forklift pre-use' }).check();
  await dialog.getByRole('switch', { name: 'Allow Anonymous Evaluations' }).check();
  await expect(dialog.getByRole('textbox', { name: 'Search cards' })).toHaveCount(0);
  await expectAccessible(page, 'new board dialog');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  const tile = page.getByTestId('board-tile').filter({ hasText: 'Packing Hall' });
  await expect(tile).toContainText('2 cards');
  await expect(page.getByText('1/10 Boards Used')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Anonymous Boards' })).toBeVisible();

  // Renamed; a second board may not take its name.
  await page.getByRole('button', { name: 'Edit Packing Hall' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Board Name' });
  await expect(edit.getByLabel('New Name')).toHaveValue('Packing Hall');
  await edit.getByLabel('New Name').fill('Packing Hall East');
  await edit.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('board-tile').filter({ hasText: 'Packing Hall East' })).toBeVisible();
  await page.getByRole('button', { name: 'Create a new Board' }).click();
  await page.getByRole('dialog', { name: 'New Board' }).getByLabel('Name').fill('packing hall east');
  await page.getByRole('dialog', { name: 'New Board' }).getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByRole('dialog', { name: 'New Board' }).getByText('The name already exists.'),
  ).toBeVisible();
  // Closing resets the form.
  await page.getByRole('dialog', { name: 'New Board' }).getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Create a new Board' }).click();
  await expect(page.getByRole('dialog', { name: 'New Board' }).getByLabel('Name')).toHaveValue('');
  await expect(
    page.getByRole('dialog', { name: 'New Board' }).getByText('The name already exists.'),
  ).toHaveCount(0);
  await page.getByRole('dialog', { name: 'New Board' }).getByRole('button', { name: 'Cancel' }).click();

  // Search filters the panel.
  await page.getByRole('textbox', { name: 'Search boards' }).fill('east');
  await expect(page.getByTestId('board-tile')).toHaveCount(1);
  await page.getByRole('textbox', { name: 'Search boards' }).fill('kitchen');
  await expect(page.getByTestId('board-tile')).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Search boards' }).fill('');

  // Delete a card: the board holds one card now.
  await page.getByRole('tab', { name: 'Cards' }).click();
  await page.getByRole('button', { name: 'Delete Forklift pre-use' }).click();
  await page
    .getByRole('dialog', { name: 'Delete Forklift pre-use' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByRole('row', { name: /Forklift pre-use/ })).toHaveCount(0);
  await expect(page.getByText('Deleted in the last 31 days')).toBeVisible();
  await page.getByRole('tab', { name: 'Boards' }).click();
  await expect(page.getByTestId('board-tile').filter({ hasText: 'Packing Hall East' })).toContainText(
    '1 card',
  );

  // Delete the board.
  await page.getByRole('button', { name: 'Delete Packing Hall East' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Packing Hall East' });
  await expectAccessible(page, 'delete board dialog');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('board-tile')).toHaveCount(0);
  await expect(page.getByText('0/10 Boards Used')).toBeVisible();
});

test.describe('in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('a viewer sees only the boards that have cards, and no editing controls', async ({ page }) => {
    const s = seed();
    const team = await s.team();
    const card = await s.card(team.org, { name: `Cold room ${suffix()}` });
    await s.board(team.org, { name: 'Cold Store', cardIds: [card.id] });
    await s.board(team.org, { name: 'Empty Dock' });
    await signInAs(page, team.viewer.cookie);
    await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
    await expect(page.getByTestId('board-tile')).toHaveCount(1);
    await expect(page.getByTestId('board-tile')).toContainText('Cold Store');
    await expect(page.getByText('Empty Dock')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create a new Board' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expectAccessible(page, 'boards panel, viewer, dark');
  });

  test('an admin sees a board without cards, with its red note', async ({ page }) => {
    const s = seed();
    const team = await s.team();
    await s.board(team.org, { name: 'Empty Dock' });
    await signInAs(page, team.admin.cookie);
    await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
    const tile = page.getByTestId('board-tile').filter({ hasText: 'Empty Dock' });
    await expect(tile).toContainText('No cards in board. Edit the board to assign a card.');
    await expectAccessible(page, 'boards panel, admin, dark');
  });
});

test('a viewer of an organisation without boards is asked to contact the administrator', async ({ page }) => {
  const team = await seed().team();
  await signInAs(page, team.viewer.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
  await expect(page.getByText('Contact your administrator to create a board.')).toBeVisible();
});

test('the card picker searches above 10 cards and stops at 15', async ({ page }) => {
  const s = seed();
  const team = await s.team();
  for (let i = 1; i <= 16; i++)
    await s.card(team.org, { name: `Check ${String(i).padStart(2, '0')}`, items: [] });
  await signInAs(page, team.admin.cookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
  await adminMode(page);
  await page.getByRole('button', { name: 'Create a new Board' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Board' });
  const search = dialog.getByRole('textbox', { name: 'Search cards' });
  await expect(search).toBeVisible();
  await search.fill('check 1');
  await expect(dialog.getByRole('checkbox')).toHaveCount(7);
  await search.fill('');
  for (let i = 1; i <= 15; i++)
    await dialog.getByRole('checkbox', { name: `Check ${String(i).padStart(2, '0')}` }).check();
  await dialog.getByRole('checkbox', { name: 'Check 16' }).click();
  await expect(dialog.getByText('You may only assign up to 15 cards to a board.')).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'Check 16' })).not.toBeChecked();
  await expect(dialog.getByText('(15/15)')).toBeVisible();
  await expectAccessible(page, 'card picker at its limit');
});
