/**
 * Schedule reminders (issue 13, docs/decisions/0702, 0714): the assignees are mailed when an occurrence's
 * window opens (and it is not done yet) and when it ends missed; each organisation's administrators get one
 * digest a day of the day before's missed checks. Exactly once per recipient across app instances: each
 * mail is claimed by inserting its row, keyed by (schedule, occurrence start, kind, assignee) — or
 * (organisation, day, administrator) for the digest — and only the process whose INSERT wrote the row
 * sends that one mail. A claim whose send failed is given back, so the next run retries that recipient
 * only; one left unsent by a process that died is taken over after STALE_CLAIM_MS.
 */
import { randomUUID } from 'node:crypto';
import { addDays, isWholeDay, localDay, timeOfMinutes, zonedInstant } from '../../../common/schedules.ts';
import type { Services } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import {
  scheduleDigestMail,
  scheduleMissedMail,
  scheduleOpenMail,
  type ScheduleMailFacts,
} from '../../mail/templates.ts';
import { getOrgTimeZone } from '../shared/orgTimeZone.ts';
import { orgPath } from '../shared/urls.ts';
import { computeOccurrences, loadSchedules, type ComputedOccurrence, type ScheduleRow } from './service.ts';

const HOUR_MS = 3_600_000;
/** How far back a run looks: a missed window is still reported after a day of downtime. */
const LOOKBACK_MS = 26 * HOUR_MS;
/** A claim not marked sent after this long belonged to a process that died: another may take it. */
export const STALE_CLAIM_MS = 15 * 60_000;

/** Mails sent by one pass (one per recipient), and the errors of those that failed. */
export interface ScheduleReminderOutcome {
  open: number;
  missed: number;
  digests: number;
  errors: unknown[];
}

/** One mail to one recipient: the unit that is claimed, sent and settled. */
type Claim =
  | {
      table: 'notice';
      orgId: number;
      scheduleId: number;
      start: number;
      kind: 'open' | 'missed';
      userId: number;
    }
  | { table: 'digest'; orgId: number; day: string; userId: number };

/** Claims one mail for this process: true when this process, and only it, is to send it. */
async function claim(db: Db, what: Claim, owner: string, now: number): Promise<boolean> {
  if (what.table === 'notice') {
    const inserted = await db
      .insertInto('schedule_notice_recipients')
      .values({
        org_id: what.orgId,
        schedule_id: what.scheduleId,
        occurrence_start: what.start,
        kind: what.kind,
        user_id: what.userId,
        claimed_by: owner,
        sent_at: null,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['schedule_id', 'occurrence_start', 'kind', 'user_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
    const taken = await db
      .updateTable('schedule_notice_recipients')
      .set({ claimed_by: owner, created_at: now })
      .where('org_id', '=', what.orgId)
      .where('schedule_id', '=', what.scheduleId)
      .where('occurrence_start', '=', what.start)
      .where('kind', '=', what.kind)
      .where('user_id', '=', what.userId)
      .where('sent_at', 'is', null)
      .where('created_at', '<', now - STALE_CLAIM_MS)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }
  const inserted = await db
    .insertInto('schedule_digest_recipients')
    .values({
      org_id: what.orgId,
      day: what.day,
      user_id: what.userId,
      claimed_by: owner,
      sent_at: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['org_id', 'day', 'user_id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
  const taken = await db
    .updateTable('schedule_digest_recipients')
    .set({ claimed_by: owner, created_at: now })
    .where('org_id', '=', what.orgId)
    .where('day', '=', what.day)
    .where('user_id', '=', what.userId)
    .where('sent_at', 'is', null)
    .where('created_at', '<', now - STALE_CLAIM_MS)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** Marks our claim sent, or (sent = false) gives it back so the next run tries that recipient again. */
async function settle(db: Db, what: Claim, owner: string, now: number, sent: boolean) {
  if (what.table === 'notice') {
    const mine = {
      org_id: what.orgId,
      schedule_id: what.scheduleId,
      occurrence_start: what.start,
      kind: what.kind,
      user_id: what.userId,
      claimed_by: owner,
    } as const;
    if (sent)
      await db
        .updateTable('schedule_notice_recipients')
        .set({ sent_at: now })
        .where((eb) => eb.and(mine))
        .execute();
    else
      await db
        .deleteFrom('schedule_notice_recipients')
        .where((eb) => eb.and(mine))
        .execute();
    return;
  }
  const mine = { org_id: what.orgId, day: what.day, user_id: what.userId, claimed_by: owner } as const;
  if (sent)
    await db
      .updateTable('schedule_digest_recipients')
      .set({ sent_at: now })
      .where((eb) => eb.and(mine))
      .execute();
  else
    await db
      .deleteFrom('schedule_digest_recipients')
      .where((eb) => eb.and(mine))
      .execute();
}

/**
 * Claims, sends and settles one mail; true when this process sent it. A failure is recorded in the
 * outcome and gives the claim back; the other recipients of the same notice are not affected.
 */
async function sendOnce(
  services: Services,
  what: Claim,
  owner: string,
  now: number,
  mail: Parameters<Services['mailer']['send']>[0],
  outcome: ScheduleReminderOutcome,
): Promise<boolean> {
  const { db } = services;
  if (!(await claim(db, what, owner, now))) return false;
  try {
    await services.mailer.send(mail);
  } catch (error) {
    await settle(db, what, owner, now, false);
    outcome.errors.push(error);
    return false;
  }
  await settle(db, what, owner, now, true);
  return true;
}

const windowText = (schedule: ScheduleRow) =>
  isWholeDay(schedule)
    ? 'all day'
    : `${timeOfMinutes(schedule.windowStart)}-${timeOfMinutes(schedule.windowEnd)}`;

function factsOf(occurrence: ComputedOccurrence, orgName: string, timeZone: string): ScheduleMailFacts {
  return {
    orgName,
    boardName: occurrence.schedule.boardName,
    cardName: occurrence.schedule.cardName,
    date: occurrence.date,
    window: windowText(occurrence.schedule),
    timeZone,
  };
}

/**
 * One pass over every organisation with schedules. A plain function of (services, now), run by the job
 * `schedule-reminders`; `owner` names this process's claims.
 */
export async function sendScheduleReminders(
  services: Services,
  now: number,
  owner: string = randomUUID(),
): Promise<ScheduleReminderOutcome> {
  const outcome: ScheduleReminderOutcome = { open: 0, missed: 0, digests: 0, errors: [] };
  // Without SMTP nothing is claimed: reminders start once mail is set up.
  if (!services.config.smtpUrl) return outcome;
  const { db } = services;
  // The one scan across organisations: which have schedules at all.
  const orgs = await db
    .selectFrom('schedules')
    .innerJoin('organizations', 'organizations.id', 'schedules.org_id')
    .select(['organizations.id', 'organizations.name'])
    .distinct()
    .execute();
  for (const org of orgs) {
    const timeZone = await getOrgTimeZone(db, org.id);
    const schedules = await loadSchedules(db, org.id, {});
    if (!schedules.length) continue;
    const occurrences = await computeOccurrences(
      db,
      org.id,
      schedules,
      timeZone,
      { from: now - LOOKBACK_MS, to: now + 1 },
      now,
    );
    // What was already sent in the look-back: read once, so a pass over sent notices writes nothing
    // (the claim itself is still the insert below).
    const sentRows = await db
      .selectFrom('schedule_notice_recipients')
      .select(['schedule_id', 'occurrence_start', 'kind', 'user_id'])
      .where('org_id', '=', org.id)
      .where('occurrence_start', '>=', now - LOOKBACK_MS - 2 * 24 * HOUR_MS)
      .where('sent_at', 'is not', null)
      .execute();
    const sent = new Set(
      sentRows.map((r) => `${r.schedule_id}:${r.occurrence_start}:${r.kind}:${r.user_id}`),
    );
    const boardUrl = (boardName: string) =>
      `${services.config.appUrl}${orgPath(org.name, `boards/${encodeURIComponent(boardName)}`)}`;
    for (const occurrence of occurrences) {
      const { schedule } = occurrence;
      // Nothing about windows that had ended before the schedule was made (a start date in the past).
      if (occurrence.end <= schedule.createdAt || !schedule.assignees.length) continue;
      let kind: 'open' | 'missed' | null = null;
      if (occurrence.status === 'Due' && occurrence.start <= now && occurrence.start >= schedule.createdAt)
        kind = 'open';
      else if (occurrence.status === 'Missed') kind = 'missed';
      if (!kind) continue;
      const facts = factsOf(occurrence, org.name, timeZone);
      const url = boardUrl(schedule.boardName);
      for (const assignee of schedule.assignees) {
        const key = `${schedule.id}:${occurrence.start}:${kind}:${assignee.id}`;
        if (sent.has(key)) continue;
        const what: Claim = {
          table: 'notice',
          orgId: org.id,
          scheduleId: schedule.id,
          start: occurrence.start,
          kind,
          userId: assignee.id,
        };
        const mail =
          kind === 'open'
            ? scheduleOpenMail(assignee.email, facts, url)
            : scheduleMissedMail(assignee.email, facts, url);
        if (await sendOnce(services, what, owner, now, mail, outcome)) outcome[kind] += 1;
      }
    }
    await sendDigest(services, org, timeZone, schedules, now, owner, outcome);
  }
  return outcome;
}

/** The day before's missed checks, once per organisation and day, to its administrators and owners. */
async function sendDigest(
  services: Services,
  org: { id: number; name: string },
  timeZone: string,
  schedules: ScheduleRow[],
  now: number,
  owner: string,
  outcome: ScheduleReminderOutcome,
) {
  const { db } = services;
  const yesterday = addDays(localDay(now, timeZone), -1);
  const range = {
    from: zonedInstant(yesterday, 0, timeZone),
    to: zonedInstant(addDays(yesterday, 1), 0, timeZone),
  };
  const missed = (await computeOccurrences(db, org.id, schedules, timeZone, range, now)).filter(
    (o) => o.status === 'Missed' && o.end > o.schedule.createdAt,
  );
  if (!missed.length) return;
  const admins = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('org_id', '=', org.id)
    .where('deleted_at', 'is', null)
    .where('role', 'in', ['admin', 'owner'])
    .orderBy('email_key')
    .execute();
  const digest = {
    orgName: org.name,
    day: yesterday,
    missed: missed.map((o) => ({
      boardName: o.schedule.boardName,
      cardName: o.schedule.cardName,
      window: windowText(o.schedule),
    })),
  };
  const url = `${services.config.appUrl}${orgPath(org.name, 'home/schedule')}`;
  const sentTo = new Set(
    (
      await db
        .selectFrom('schedule_digest_recipients')
        .select('user_id')
        .where('org_id', '=', org.id)
        .where('day', '=', yesterday)
        .where('sent_at', 'is not', null)
        .execute()
    ).map((r) => r.user_id),
  );
  for (const admin of admins) {
    if (sentTo.has(admin.id)) continue;
    const what: Claim = { table: 'digest', orgId: org.id, day: yesterday, userId: admin.id };
    const mail = scheduleDigestMail(admin.email, digest, url);
    if (await sendOnce(services, what, owner, now, mail, outcome)) outcome.digests += 1;
  }
}
