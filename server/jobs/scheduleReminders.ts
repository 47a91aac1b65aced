/**
 * Schedule reminders and the administrators' daily digest (docs/decisions/0702, 0714) as a job: one
 * process runs it every 5 minutes; each mail is also claimed in its own row per recipient, so nobody gets
 * one twice and a failed mail is retried for its recipient alone. Quiet without mail.
 */
import { sendScheduleReminders } from '../modules/schedules/reminders.ts';
import { defineJob } from './runner.ts';

export const SCHEDULE_REMINDERS_EVERY_MS = 5 * 60_000;

export const scheduleRemindersJob = defineJob(
  'schedule-reminders',
  SCHEDULE_REMINDERS_EVERY_MS,
  async (services, now) => {
    const outcome = await sendScheduleReminders(services, now);
    if (outcome.errors.length)
      throw new AggregateError(outcome.errors, `${outcome.errors.length} schedule reminder mail(s) not sent`);
  },
);
