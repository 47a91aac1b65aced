/**
 * Issue 12's corrective actions, at desktop and phone sizes: an evaluator fails an item and raises an action
 * from it, assigned to another member; that member is mailed, signs in, finds it in the Actions tab and
 * closes it as Done with a note; the board's square and card show the open action, then no longer.
 */
import { fileURLToPath } from 'node:url';
import { signIn } from '../server/test/factories.ts';
import { expect, expectAccessible, linkFromMail, mailTo, seed, signInAs, test } from './fixtures.ts';

const PHOTO = fileURLToPath(new URL('../server/modules/evidence/fixtures/photo.jpg', import.meta.url));

const suffix = () => Math.random().toString(36).slice(2, 7);

test('an evaluator raises an action from a failed item; the assignee is mailed and closes it as Done', async ({
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const assignee = await s.user(team.org, { role: 'evaluator', email: `fixer-${suffix()}@example.com` });
  const assigneeCookie = await signIn(s.env, assignee);
  const card = await s.card(team.org, { name: `Guard check ${suffix()}` });
  const board = await s.board(team.org, { name: `Press Line ${suffix()}`, cardIds: [card.id] });
  const boardPath = `/q/${encodeURIComponent(team.org.name)}/boards/${encodeURIComponent(board.name)}`;

  // The evaluator runs the card and fails "Guards in place".
  await signInAs(page, team.evaluator.cookie);
  await page.goto(boardPath);
  await page.getByRole('link', { name: 'Evaluate' }).click();
  await page.getByRole('button', { name: new RegExp(card.name) }).click();
  await expect(page.getByRole('heading', { level: 1, name: card.name })).toBeVisible();
  const guards = page.getByRole('radiogroup', { name: 'Guards in place' });
  await expect(page.getByRole('button', { name: /^Raise action/ })).toHaveCount(0);
  await guards.getByRole('radio', { name: 'Fail' }).click();
  // A photo of what failed (the camera input of the first item that takes evidence: this check).
  await page.getByTestId('photo-input').first().setInputFiles(PHOTO);
  await expect(page.getByRole('button', { name: 'Remove photo 1' })).toBeVisible();

  // During the evaluation: "Raise action" beside the failed check, the title prefilled from it.
  await page.getByRole('button', { name: 'Raise action: Guards in place' }).click();
  const form = page.getByRole('dialog', { name: 'Raise action' });
  await expect(form.getByLabel('Title')).toHaveValue('Guards in place');
  await expect(form.getByLabel('Due date')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  await form.getByLabel('Description').fill('The left guard is loose: refit and test it.');
  await form.getByRole('button', { name: 'Raise action' }).click();
  await expect(form.getByText('Choose who the action is assigned to.')).toBeVisible();
  await form.getByLabel('Assigned to').selectOption({ label: assignee.email });
  await form.getByLabel('Priority').selectOption('High');
  await expectAccessible(page, 'raise action form');
  await form.getByRole('button', { name: 'Raise action' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText('Action raised.')).toBeVisible();

  await page.getByRole('radiogroup', { name: 'Floor is dry' }).getByRole('radio', { name: 'Pass' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('button', { name: 'Skip' }).click();

  // The board: the card counts its open action, the square is marked and says so.
  await expect(page.getByRole('heading', { level: 1, name: board.name })).toBeVisible();
  await expect(page.getByTestId('open-actions')).toHaveText(/1 open action/);
  const square = page.getByTestId('square');
  await expect(square).toHaveAttribute('aria-label', /^Fail, .*, 1 open action$/);
  await expect(square).toHaveAttribute('data-actions', 'true');
  await expectAccessible(page, 'board with an open action');

  // The evaluation modal on the board view offers the same control on the failed item.
  await square.click();
  const modal = page.getByRole('dialog', { name: card.name });
  await expect(modal.getByRole('button', { name: 'Raise action: Guards in place' })).toBeVisible();
  await expectAccessible(page, 'evaluation modal with Raise action');
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  // The assignee's email, with a link to the action.
  const link = await linkFromMail(assignee.email, '/home/actions/');
  const mail = mailTo(assignee.email).at(-1)!;
  expect(mail.subject).toBe('Action assigned to you: Guards in place');
  expect(mail.text).toContain('Priority: High');

  // The assignee signs in and finds it in the Actions tab.
  await page.goto('about:blank');
  await page.context().clearCookies();
  await signInAs(page, assigneeCookie);
  await page.goto(`/q/${encodeURIComponent(team.org.name)}/home`);
  await page.getByRole('tab', { name: 'Actions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Actions' })).toBeVisible();
  const row = page.getByTestId('action-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Guards in place');
  await expect(row).toContainText('Assigned to you');
  await expectAccessible(page, 'actions tab');

  // The mailed link opens the action itself.
  await page.goto(link);
  const dialog = page.getByRole('dialog', { name: 'Guards in place' });
  await expect(dialog.getByText('The left guard is loose: refit and test it.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Mark as Done' }).click();
  await dialog.getByLabel('Close-out note').fill('Guard refitted and tested at start-up.');
  // A photo of the fix, from the phone's camera input.
  await dialog.getByLabel('Add a close-out photo').setInputFiles(PHOTO);
  await expect(dialog.getByRole('img', { name: 'Close-out photo 1' })).toBeVisible();
  await expectAccessible(page, 'closing an action');
  await dialog.getByRole('button', { name: 'Close as Done' }).click();
  await expect(dialog.getByTestId('close-note')).toHaveText('Guard refitted and tested at start-up.');
  await expect(dialog.getByTestId('history-entry')).toHaveCount(2);
  // The photo stays with the closed action; nothing more can be added.
  await expect(dialog.getByRole('img', { name: 'Close-out photo 1' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add photo' })).toHaveCount(0);
  await expect(dialog.getByTestId('history-entry').last()).toContainText(`Done by ${assignee.email}`);
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/home\/actions$/);
  // The tab shows open actions by default: none left.
  await expect(page.getByText('No actions found')).toBeVisible();

  // Back on the board, the square and the card no longer show an open action.
  await page.goto(boardPath);
  await expect(page.getByTestId('square')).toHaveAttribute('aria-label', /^Fail, [^,]+, by /);
  await expect(page.getByTestId('square')).not.toHaveAttribute('data-actions', 'true');
  await expect(page.getByTestId('open-actions')).toHaveCount(0);
});

test('an administrator raises an action on a board, sees all actions, edits and cancels it; a viewer sees none', async ({
  page,
}) => {
  const s = seed();
  const team = await s.team();
  const card = await s.card(team.org, { name: `Floor check ${suffix()}` });
  const board = await s.board(team.org, { name: `Dock ${suffix()}`, cardIds: [card.id] });
  const org = `/q/${encodeURIComponent(team.org.name)}`;

  // A viewer has no Actions tab, and its address is not a page for them.
  await signInAs(page, team.viewer.cookie);
  await page.goto(`${org}/home`);
  await expect(page.getByRole('tab', { name: 'Boards' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Actions' })).toHaveCount(0);
  await page.goto(`${org}/home/actions`);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();

  // The administrator raises one on the board, without an evaluation, assigned to the evaluator.
  await page.goto('about:blank');
  await page.context().clearCookies();
  await signInAs(page, team.admin.cookie);
  await page.goto(`${org}/boards/${encodeURIComponent(board.name)}`);
  await page.getByRole('button', { name: 'Raise action on this board' }).click();
  const form = page.getByRole('dialog', { name: 'Raise action' });
  await expect(form.getByLabel('Title')).toHaveValue('');
  await form.getByLabel('Title').fill('Repaint the dock markings');
  await form.getByLabel('Assigned to').selectOption({ label: team.evaluator.email });
  await form.getByLabel('Due date').fill('2020-03-01');
  await form.getByRole('button', { name: 'Raise action' }).click();
  await expect(form).toBeHidden();

  // "My actions" holds what one raised; "All actions" everything; the overdue one says so.
  await page.goto(`${org}/home/actions`);
  const row = page.getByTestId('action-row');
  await expect(row).toHaveCount(1);
  await page.getByRole('radiogroup', { name: 'Whose actions' }).getByText('All actions').click();
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('overdue')).toHaveText(/Overdue/);
  await expect(row).toContainText(`Assigned to ${team.evaluator.email}`);
  await expectAccessible(page, 'actions tab, all actions, overdue');

  // Edit: a new due date and priority, recorded in the history.
  await row.getByRole('button', { name: 'Open Repaint the dock markings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Repaint the dock markings' });
  await dialog.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit action' });
  await edit.getByLabel('Due date').fill('2099-06-30');
  await edit.getByLabel('Priority').selectOption('Low');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(dialog.getByTestId('history-entry').last()).toContainText('Due date: 2020-03-01 → 2099-06-30');
  await expect(dialog.getByTestId('overdue')).toHaveCount(0);

  // Cancel, with a note.
  await dialog.getByRole('button', { name: 'Cancel action' }).click();
  await dialog.getByLabel('Why is it cancelled? (optional)').fill('Dock closes next month.');
  await dialog.getByRole('button', { name: 'Cancel action' }).click();
  await expect(dialog.getByText('Cancelled', { exact: true }).first()).toBeVisible();
  await expect(dialog.getByTestId('history-entry')).toHaveCount(3);
  await expectAccessible(page, 'a cancelled action');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/home\/actions$/);
  // The tab is as it was left: still all actions.
  await expect(
    page.getByRole('radiogroup', { name: 'Whose actions' }).getByRole('radio', { name: 'All actions' }),
  ).toBeChecked();
  await page.getByLabel('Status').selectOption('Cancelled');
  await expect(row).toHaveCount(1);
});
