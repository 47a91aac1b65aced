/**
 * Corrective actions' due and overdue reminders (docs/decisions/0671) as a job: one process runs it every
 * 10 minutes; each reminder is also claimed in its row, so none is ever sent twice. Quiet without mail.
 */
import { sendActionReminders } from '../modules/actions/reminders.ts';
import { defineJob } from './runner.ts';

export const ACTION_REMINDERS_EVERY_MS = 10 * 60_000;

export const actionRemindersJob = defineJob(
  'action-reminders',
  ACTION_REMINDERS_EVERY_MS,
  async (services, now) => {
    const outcome = await sendActionReminders(services, now);
    // Unsent reminders gave their claims back; failing the run logs why and tries again soon (runner.ts).
    if (outcome.errors.length)
      throw new AggregateError(outcome.errors, `${outcome.errors.length} action reminder(s) not sent`);
  },
);
