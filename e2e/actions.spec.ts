/**
 * Issue 12's corrective actions, at desktop and phone sizes: an evaluator fails an item and raises an action
 * from it, assigned to another member; that member is mailed, signs in, finds it in the Actions tab and
 * closes it as Done with a note; the board's square and card show the open action, then no longer.
 */
import { signIn } from '../server/test/factories.ts';
import { expect, expectAccessible, linkFromMail, mailTo, seed, signInAs, test } from './fixtures.ts';

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
  await expectAccessible(page, 'closing an action');
  await dialog.getByRole('button', { name: 'Close as Done' }).click();
  await expect(dialog.getByTestId('close-note')).toHaveText('Guard refitted and tested at start-up.');
  await expect(dialog.getByTestId('history-entry')).toHaveCount(2);
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
