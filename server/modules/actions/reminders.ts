/**
 * The action reminders (issue 12, docs/decisions/0671): the assignee is mailed on the day an action falls due
 * and once it is overdue, each day counted in the time zone the action was raised in. Safe with several app
 * instances on one database: each reminder is claimed by an UPDATE … WHERE <claim> IS NULL, and only the
 * process whose update changed the row sends it; a send that fails gives its claim back for the next run.
 * A plain function of (services, now), so a job runner can call it as it is.
 */
import { localDate } from '../../../common/actions.ts';
import type { Services } from '../../context.ts';
import { actionDueMail, actionOverdueMail } from '../../mail/templates.ts';
import { actionUrl } from './links.ts';

/** The furthest any zone's calendar runs ahead of UTC (UTC+14): actions due later are not due anywhere yet. */
const MAX_AHEAD_MS = 14 * 60 * 60_000;
const BATCH = 200;

type Kind = 'due' | 'overdue';

export interface ReminderOutcome {
  due: number;
  overdue: number;
  failed: number;
  /** Why sends failed (their claims were given back); the caller logs them. */
  errors: unknown[];
}

export async function sendActionReminders(services: Services, now: number): Promise<ReminderOutcome> {
  const outcome: ReminderOutcome = { due: 0, overdue: 0, failed: 0, errors: [] };
  // Without SMTP there is no one to remind: nothing is claimed, so reminders go out once mail is set up.
  if (!services.config.smtpUrl) return outcome;
  const { db } = services;
  const latest = localDate(now + MAX_AHEAD_MS, 'UTC');
  let afterId = 0;
  for (;;) {
    // Across every organisation (the one scan that does): open actions whose day may have come somewhere.
    const rows = await db
      .selectFrom('actions')
      .innerJoin('users', (join) =>
        join.onRef('users.id', '=', 'actions.assignee_id').onRef('users.org_id', '=', 'actions.org_id'),
      )
      .innerJoin('organizations', 'organizations.id', 'actions.org_id')
      .select([
        'actions.id',
        'actions.org_id',
        'actions.title',
        'actions.board_name',
        'actions.card_name',
        'actions.due_date',
        'actions.time_zone',
        'actions.priority',
        'actions.due_reminded_at',
        'actions.overdue_reminded_at',
        'users.email',
        'users.deleted_at',
        'organizations.name as org_name',
      ])
      .where('actions.status', '=', 'Open')
      .where('actions.due_date', '<=', latest)
      .where((eb) =>
        eb.or([eb('actions.due_reminded_at', 'is', null), eb('actions.overdue_reminded_at', 'is', null)]),
      )
      .where('actions.id', '>', afterId)
      .orderBy('actions.id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      if (row.deleted_at !== null) continue;
      const today = localDate(now, row.time_zone);
      let kind: Kind | null = null;
      if (row.due_date < today && row.overdue_reminded_at === null) kind = 'overdue';
      else if (row.due_date === today && row.due_reminded_at === null) kind = 'due';
      if (!kind) continue;
      const column = kind === 'due' ? 'due_reminded_at' : 'overdue_reminded_at';
      const claimed = await db
        .updateTable('actions')
        .set(
          kind === 'overdue'
            ? { overdue_reminded_at: now, due_reminded_at: row.due_reminded_at ?? now }
            : { due_reminded_at: now },
        )
        .where('org_id', '=', row.org_id)
        .where('id', '=', row.id)
        .where('status', '=', 'Open')
        .where(column, 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      const facts = {
        title: row.title,
        boardName: row.board_name,
        cardName: row.card_name,
        dueDate: row.due_date,
        priority: row.priority,
        orgName: row.org_name,
      };
      const url = actionUrl(services.config.appUrl, row.org_name, row.id);
      try {
        await services.mailer.send(
          kind === 'due' ? actionDueMail(row.email, facts, url) : actionOverdueMail(row.email, facts, url),
        );
        outcome[kind] += 1;
      } catch (error) {
        outcome.failed += 1;
        // Give the claim back (only ours: the value we wrote) so the next run tries again.
        await db
          .updateTable('actions')
          .set(kind === 'due' ? { due_reminded_at: null } : { overdue_reminded_at: null })
          .where('org_id', '=', row.org_id)
          .where('id', '=', row.id)
          .where(column, '=', now)
          .execute();
        outcome.errors.push(error);
      }
    }
    if (rows.length < BATCH) return outcome;
    afterId = rows.at(-1)!.id;
  }
}
