/**
 * The board view's local days (decisions 0620, 0626): get-evaluations lists per card and local day the day's
 * last 3 and the totals of a day with more, by the caller's calendar: days of 23 and 25 hours, zones half and
 * three quarters of an hour off UTC, a day of exactly 3 and one of 4, ties on the completion time.
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { nameKey } from '../../../common/validation.ts';
import { boardEvaluations, localDays } from '../shared/evaluations.ts';
import { buildAnonymousKey, buildBoard, buildCard, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase } from '../../test/harness.ts';

const DAY = 24 * 60 * 60_000;
const HOUR = 60 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

type Listed = { ID: number; cardID: number; completedTime: string; pass: boolean };
type MoreDay = { cardID: number; date: string; pass: number; fail: number };
type Row = { card: { id: number; name: string }; at: number; pass: boolean };

describeEachDatabase('get-evaluations: local days', (env) => {
  /** A team and a board of two cards, with the clock at `now`. */
  async function boardAt(now: number) {
    env.clock.set(now);
    const team = await buildTeam(env);
    const first = await buildCard(env, team.org);
    const cards: [typeof first, typeof first] = [first, await buildCard(env, team.org)];
    const board = await buildBoard(env, team.org, { cardIds: cards.map((c) => c.id) });
    return { team, cards, board };
  }
  type Board = Awaited<ReturnType<typeof boardAt>>;

  /** Completed evaluations stored as the services store them; their ids in the order given. */
  async function add(b: Board, rows: (Row & { anonKeyId?: number })[]): Promise<number[]> {
    const user = b.team.evaluator;
    const ids: number[] = [];
    for (const { card, at, pass, anonKeyId } of rows) {
      const row = await env.db
        .insertInto('evaluations')
        .values({
          org_id: b.team.org.id,
          board_id: b.board.id,
          card_id: card.id,
          user_id: anonKeyId ? null : user.id,
          anon_key_id: anonKeyId ?? null,
          user_name: anonKeyId ? 'Anonymous' : user.email,
          board_name: b.board.name,
          card_name: card.name,
          user_name_key: nameKey(user.email),
          board_name_key: nameKey(b.board.name),
          card_name_key: nameKey(card.name),
          pass: pass ? 1 : 0,
          has_feedback: 0,
          started_at: at - 60_000,
          completed_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return ids;
  }

  async function boardView(b: Board, timeZone: string, since = env.clock.now() - 31 * DAY) {
    const answer = await call(
      env,
      'getEvaluations',
      { boardID: b.board.id, startDateTime: iso(since), timeZone },
      { cookie: b.team.viewer.cookie },
    );
    expect(answer.status).toBe(200);
    return {
      listed: answer.body.evaluations as Listed[],
      more: answer.body.moreDays as MoreDay[],
    };
  }

  /** The listed ids of one card's local day, oldest first. */
  function dayOf(listed: Listed[], cardID: number, date: string, zone: string) {
    return listed
      .filter(
        (e) =>
          e.cardID === cardID && format(new TZDate(Date.parse(e.completedTime), zone), 'yyyy-MM-dd') === date,
      )
      .map((e) => e.ID);
  }

  it('cuts a 23-hour and a 25-hour day (Europe/Berlin) at their own midnights', async () => {
    const zone = 'Europe/Berlin';
    // Spring: 2026-03-29 runs from 23:00 UTC on the 28th to 22:00 UTC on the 29th (23 hours).
    const spring = await boardAt(Date.UTC(2026, 3, 10, 12));
    const [card] = spring.cards;
    const springIds = await add(spring, [
      { card, at: Date.UTC(2026, 2, 28, 22, 59, 59, 999), pass: true }, // the 28th, last instant
      { card, at: Date.UTC(2026, 2, 28, 23), pass: false }, // the 29th, first instant
      { card, at: Date.UTC(2026, 2, 29, 1, 30), pass: true }, // the hour that was skipped, in UTC
      { card, at: Date.UTC(2026, 2, 29, 12), pass: true },
      { card, at: Date.UTC(2026, 2, 29, 21, 59, 59, 999), pass: false }, // the 29th, last instant
      { card, at: Date.UTC(2026, 2, 29, 22), pass: true }, // the 30th, first instant
    ]);
    let view = await boardView(spring, zone);
    expect(dayOf(view.listed, card.id, '2026-03-28', zone)).toEqual([springIds[0]]);
    expect(dayOf(view.listed, card.id, '2026-03-29', zone)).toEqual(springIds.slice(2, 5));
    expect(dayOf(view.listed, card.id, '2026-03-30', zone)).toEqual([springIds[5]]);
    expect(view.more).toEqual([{ cardID: card.id, date: '2026-03-29', pass: 2, fail: 2 }]);

    // Autumn: 2026-10-25 runs from 22:00 UTC on the 24th to 23:00 UTC on the 25th (25 hours).
    const autumn = await boardAt(Date.UTC(2026, 10, 5, 12));
    const [other] = autumn.cards;
    const autumnIds = await add(autumn, [
      { card: other, at: Date.UTC(2026, 9, 24, 21, 59, 59, 999), pass: false }, // the 24th
      { card: other, at: Date.UTC(2026, 9, 24, 22), pass: true }, // the 25th, first instant
      { card: other, at: Date.UTC(2026, 9, 25, 0, 30), pass: true }, // 02:30, the first time
      { card: other, at: Date.UTC(2026, 9, 25, 1, 30), pass: false }, // 02:30, the second time
      { card: other, at: Date.UTC(2026, 9, 25, 22, 59, 59, 999), pass: true }, // the 25th, last instant
      { card: other, at: Date.UTC(2026, 9, 25, 23), pass: true }, // the 26th
    ]);
    view = await boardView(autumn, zone);
    expect(dayOf(view.listed, other.id, '2026-10-24', zone)).toEqual([autumnIds[0]]);
    expect(dayOf(view.listed, other.id, '2026-10-25', zone)).toEqual(autumnIds.slice(2, 5));
    expect(dayOf(view.listed, other.id, '2026-10-26', zone)).toEqual([autumnIds[5]]);
    expect(view.more).toEqual([{ cardID: other.id, date: '2026-10-25', pass: 3, fail: 1 }]);
  });

  it('cuts days half and three quarters of an hour off UTC (Asia/Kolkata, Asia/Kathmandu)', async () => {
    const b = await boardAt(Date.UTC(2026, 4, 20, 12));
    const [card] = b.cards;
    // Kolkata's 2026-05-10 starts at 18:30 UTC on the 9th; Kathmandu's at 18:15 UTC.
    const ids = await add(b, [
      { card, at: Date.UTC(2026, 4, 9, 18, 14, 59, 999), pass: true },
      { card, at: Date.UTC(2026, 4, 9, 18, 15), pass: false },
      { card, at: Date.UTC(2026, 4, 9, 18, 29, 59, 999), pass: true },
      { card, at: Date.UTC(2026, 4, 9, 18, 30), pass: true },
      { card, at: Date.UTC(2026, 4, 9, 20), pass: false },
      { card, at: Date.UTC(2026, 4, 9, 21), pass: true },
    ]);
    const kolkata = await boardView(b, 'Asia/Kolkata');
    expect(dayOf(kolkata.listed, card.id, '2026-05-09', 'Asia/Kolkata')).toEqual(ids.slice(0, 3));
    expect(dayOf(kolkata.listed, card.id, '2026-05-10', 'Asia/Kolkata')).toEqual(ids.slice(3));
    expect(kolkata.more).toEqual([]);
    const kathmandu = await boardView(b, 'Asia/Kathmandu');
    expect(dayOf(kathmandu.listed, card.id, '2026-05-09', 'Asia/Kathmandu')).toEqual([ids[0]]);
    expect(dayOf(kathmandu.listed, card.id, '2026-05-10', 'Asia/Kathmandu')).toEqual(ids.slice(3));
    expect(kathmandu.more).toEqual([{ cardID: card.id, date: '2026-05-10', pass: 3, fail: 2 }]);
    // In UTC all six are on the 9th: the last 3, and the totals of the six.
    const utc = await boardView(b, 'UTC');
    expect(dayOf(utc.listed, card.id, '2026-05-09', 'UTC')).toEqual(ids.slice(3));
    expect(utc.more).toEqual([{ cardID: card.id, date: '2026-05-09', pass: 4, fail: 2 }]);
  });

  it('lists a day of exactly 3 whole, and of a day of 4 the last 3 (ties by id) with its totals', async () => {
    const now = Date.UTC(2026, 6, 15, 12);
    const b = await boardAt(now);
    const [first, second] = b.cards;
    const three = await add(b, [
      { card: first, at: Date.UTC(2026, 6, 10, 8), pass: false },
      { card: first, at: Date.UTC(2026, 6, 10, 9), pass: true },
      { card: first, at: Date.UTC(2026, 6, 10, 10), pass: true },
    ]);
    const tie = Date.UTC(2026, 6, 11, 9);
    const four = await add(b, [
      { card: first, at: tie, pass: false },
      { card: first, at: Date.UTC(2026, 6, 11, 8), pass: true }, // the oldest: not listed
      { card: first, at: tie, pass: true },
      { card: first, at: tie, pass: false },
    ]);
    // The other card's same day is its own.
    const others = await add(b, [{ card: second, at: Date.UTC(2026, 6, 11, 7), pass: true }]);
    const view = await boardView(b, 'America/New_York');
    expect(dayOf(view.listed, first.id, '2026-07-10', 'America/New_York')).toEqual(three);
    expect(dayOf(view.listed, first.id, '2026-07-11', 'America/New_York')).toEqual([
      four[0],
      four[2],
      four[3],
    ]);
    expect(dayOf(view.listed, second.id, '2026-07-11', 'America/New_York')).toEqual(others);
    expect(view.more).toEqual([{ cardID: first.id, date: '2026-07-11', pass: 2, fail: 2 }]);
    // Oldest first, the last 3 of each card at the end of its own.
    expect(view.listed.map((e) => e.ID)).toEqual([...three, ...others, four[0], four[2], four[3]]);
  });

  it('tells an anonymous key its own evaluations by key and start, as every other call does', async () => {
    const now = Date.UTC(2026, 8, 1, 12);
    const b = await boardAt(now);
    const [card] = b.cards;
    const key = await buildAnonymousKey(env, b.team.org, b.board.id);
    const other = await buildAnonymousKey(env, b.team.org, b.board.id, 2);
    const ids = await add(b, [
      { card, at: now - 26 * HOUR, pass: true, anonKeyId: key.id }, // started too long ago
      { card, at: now - 2 * HOUR, pass: true, anonKeyId: key.id },
      { card, at: now - HOUR, pass: false, anonKeyId: other.id },
      { card, at: now - HOUR / 2, pass: true },
    ]);
    const anonymous = {
      orgId: b.team.org.id,
      who: { userId: null, userName: 'Anonymous', anonKeyId: key.id },
      managesAll: false,
      boardId: b.board.id,
      ownSince: now - 12 * HOUR + 1,
    };
    const answer = await boardEvaluations(
      env.db,
      anonymous,
      { boardId: b.board.id, since: now - 31 * DAY, timeZone: 'UTC' },
      now,
    );
    expect(answer.parse().evaluations.map((e) => [e.ID, e.isUsers, e.boardID, e.userName])).toEqual([
      [ids[0], false, b.board.id, 'Anonymous'],
      [ids[1], true, b.board.id, 'Anonymous'],
      [ids[2], false, b.board.id, 'Anonymous'],
      [ids[3], false, b.board.id, b.team.evaluator.email],
    ]);
  });
});

describe('localDays', () => {
  it('reuses a span only for calls whose first and last days are its own', () => {
    const zone = 'Europe/Berlin';
    const from = Date.UTC(2026, 2, 20, 12);
    const to = Date.UTC(2026, 3, 2, 12);
    const span = localDays(from, to, zone);
    expect(span.days[0]).toEqual({ date: '2026-03-20', start: Date.UTC(2026, 2, 19, 23) });
    expect(span.days.at(-1)).toEqual({ date: '2026-04-02', start: Date.UTC(2026, 3, 1, 22) });
    expect(span.end).toBe(Date.UTC(2026, 3, 2, 22));
    // The day of 23 hours.
    const [march29, march30] = span.days.filter((d) => d.date >= '2026-03-29');
    expect(march30!.start - march29!.start).toBe(23 * HOUR);
    // Same first and last days: the same span.
    expect(localDays(from + 10 * HOUR, to + 9 * HOUR, zone)).toBe(span);
    // Past either end: a span of its own, worked out afresh.
    const later = localDays(from, to + 10 * HOUR, zone);
    expect(later).not.toBe(span);
    expect(later.days.at(-1)!.date).toBe('2026-04-03');
    expect(later.days.slice(0, -1)).toEqual(span.days);
    const earlier = localDays(from - 14 * HOUR, to, zone);
    expect(earlier.days[0]!.date).toBe('2026-03-19');
    expect(earlier.days.slice(1)).toEqual(span.days);
    const shorter = localDays(from + 24 * HOUR, to, zone);
    expect(shorter.days[0]!.date).toBe('2026-03-21');
    expect(shorter.days).toEqual(span.days.slice(1));
    // Another zone never shares a span.
    expect(localDays(from, to, 'Europe/London').days[0]!.start).toBe(Date.UTC(2026, 2, 20));
  });
});
