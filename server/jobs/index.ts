/** Every periodic job of the server, run by startJobs (runner.ts) in whichever process claims it. */
import type { Job } from './runner.ts';
import { actionRemindersJob } from './actionReminders.ts';
import { maintenanceJob } from './maintenance.ts';
import { scheduleRemindersJob } from './scheduleReminders.ts';

export const allJobs: readonly Job[] = [maintenanceJob, actionRemindersJob, scheduleRemindersJob];
