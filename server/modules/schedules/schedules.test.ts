import { expect, it } from 'vitest';
import { rangeMessage, scheduleMessages } from '../../../common/schedules.ts';
import { buildBoard, buildCard, buildEvaluation, buildTeam, buildUser } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { sendScheduleReminders } from './reminders.ts';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
/** The fake clock in these tests: Thursday 2026-01-15 12:00 UTC (the organisation's zone). */
const NOON_15_JAN = at('2026-01-15T12:00:00Z');

async function setup(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org, { name: 'Fridge temperatures' });
  const offBoard = await buildCard(env, team.org, { name: 'Not on the board' });
  const board = await buildBoard(env, team.org, { name: 'Kitchen', cardIds: [card.id] });
  const other = await buildTeam(env);
  const otherCard = await buildCard(env, other.org, { name: 'Theirs' });
  const otherBoard = await buildBoard(env, other.org, { name: 'Their board', cardIds: [otherCard.id] });
  return { team, card, offBoard, board, other, otherCard, otherBoard };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** Daily, 06:00-13:00, from Monday 12 January, assigned to the evaluator. */
const dailyBody = (s: Setup, overrides: Record<string, unknown> = {}) => ({
  boardID: s.board.id,
  cardID: s.card.id,
  rule: 'FREQ=DAILY',
  startDate: '2026-01-12',
  windowStart: '06:00',
  windowEnd: '13:00',
  assigneeIDs: [s.team.evaluator.id],
  ...overrides,
});

async function addDaily(env: TestEnv, s: Setup, overrides: Record<string, unknown> = {}) {
  const answer = await call(env, 'addSchedule', dailyBody(s, overrides), { cookie: s.team.admin.cookie });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.schedule as { id: number };
}

const scheduleRows = (env: TestEnv, orgId: number) =>
  env.db.selectFrom('schedules').selectAll().where('org_id', '=', orgId).orderBy('id').execute();

const evaluate = (env: TestEnv, s: Setup, completedAt: number) =>
  buildEvaluation(env, s.team.org, {
    board: s.board,
    card: s.card,
    user: s.team.evaluator,
    completedAt,
    pass: true,
  });

describeEachDatabase('schedules', (env) => {
  it('an administrator adds a schedule; it is presented with its rule in words, window and assignees', async () => {
    env.clock.set(NOON_15_JAN);
    const s = await setup(env);
    const answer = await call(
      env,
      'addSchedule',
      dailyBody(s, { rule: 'rrule:freq=weekly;interval=2;byday=th,mo', endDate: '2026-06-30' }),
      { cookie: s.team.admin.cookie },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.schedule).toEqual({
      id: expect.any(Number),
      boardID: s.board.id,
      boardName: 'Kitchen',
      cardID: s.card.id,
      cardName: 'Fridge temperatures',
      rule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TH,MO',
      ruleText: 'every 2 weeks on Monday, Thursday',
      startDate: '2026-01-12',
      endDate: '2026-06-30',
      windowStart: '06:00',
      windowEnd: '13:00',
      assignees: [{ id: s.team.evaluator.id, email: s.team.evaluator.email }],
    });
    // Without a window: the whole local day.
    const whole = await call(env, 'addSchedule', dailyBody(s, { windowStart: null, windowEnd: null }), {
      cookie: s.team.owner.cookie,
    });
    expect(whole.body.schedule).toMatchObject({ windowStart: '00:00', windowEnd: '24:00' });
  });

  it('refuses callers without a session and below administrator, for every change; nothing is written', async () => {
    const s = await setup(env);
    const schedule = await addDaily(env, s);
    const before = await scheduleRows(env, s.team.org.id);
    for (const cookie of [undefined, s.team.viewer.cookie, s.team.evaluator.cookie]) {
      const status = cookie === undefined ? 401 : 403;
      expect((await call(env, 'addSchedule', dailyBody(s), cookie ? { cookie } : {})).status).toBe(status);
      expect(
        (
          await call(
            env,
            'editSchedule',
            { scheduleID: schedule.id, ...dailyBody(s) },
            cookie ? { cookie } : {},
          )
        ).status,
      ).toBe(status);
      expect(
        (await call(env, 'deleteSchedule', { scheduleID: schedule.id }, cookie ? { cookie } : {})).status,
      ).toBe(status);
    }
    expect((await call(env, 'getSchedules', {}, { cookie: s.team.viewer.cookie })).status).toBe(403);
    expect(
      (
        await call(
          env,
          'getScheduleCompliance',
          { start: '2026-01-01T00:00:00Z', end: '2026-01-10T00:00:00Z' },
          { cookie: s.team.evaluator.cookie },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await call(env, 'getScheduleOccurrences', {
          start: '2026-01-01T00:00:00Z',
          end: '2026-01-10T00:00:00Z',
        })
      ).status,
    ).toBe(401);
    expect(await scheduleRows(env, s.team.org.id)).toEqual(before);
  });

  it("answers another organisation's board, card and schedule as not found, and leaks nothing", async () => {
    const s = await setup(env);
    const theirs = await call(
      env,
      'addSchedule',
      {
        ...dailyBody(s),
        boardID: s.otherBoard.id,
        cardID: s.otherCard.id,
        assigneeIDs: [s.other.evaluator.id],
      },
      { cookie: s.other.admin.cookie },
    );
    expect(theirs.status).toBe(200);
    const theirId = theirs.body.schedule.id as number;
    const admin = { cookie: s.team.admin.cookie };
    const notFound = [
      await call(
        env,
        'addSchedule',
        dailyBody(s, { boardID: s.otherBoard.id, cardID: s.otherCard.id }),
        admin,
      ),
      await call(
        env,
        'editSchedule',
        { scheduleID: theirId, ...dailyBody(s), boardID: undefined, cardID: undefined },
        admin,
      ),
      await call(env, 'deleteSchedule', { scheduleID: theirId }, admin),
      await call(env, 'getSchedules', { boardID: s.otherBoard.id }, admin),
      await call(
        env,
        'getScheduleOccurrences',
        { start: '2026-01-12T00:00:00Z', end: '2026-01-16T00:00:00Z', boardID: s.otherBoard.id },
        { cookie: s.team.viewer.cookie },
      ),
    ];
    // editSchedule's body above carries boardID/cardID: undefined, dropped by JSON; the call is valid.
    for (const answer of notFound) expect(answer.status, JSON.stringify(answer.body)).toBe(404);
    expect(JSON.stringify(notFound.map((a) => a.body))).not.toContain('Their board');
    // Their member as an assignee is refused like a stranger.
    const stranger = await call(
      env,
      'addSchedule',
      dailyBody(s, { assigneeIDs: [s.other.evaluator.id] }),
      admin,
    );
    expect(stranger).toMatchObject({
      status: 400,
      body: { errMsg: scheduleMessages.assignee, errField: 'assigneeIDs' },
    });
    const mine = await call(env, 'getSchedules', {}, admin);
    expect(mine.body.schedules).toEqual([]);
    const rows = await env.db.selectFrom('schedules').select('org_id').where('id', '=', theirId).execute();
    expect(rows).toEqual([{ org_id: s.other.org.id }]);
  });

  it('refuses bad input with a clear message and writes nothing', async () => {
    const s = await setup(env);
    const viewer = await buildUser(env, s.team.org, { role: 'viewer' });
    const admin = { cookie: s.team.admin.cookie };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ rule: 'FREQ=HOURLY' }, scheduleMessages.rule, 'rule'],
      [{ rule: 'FREQ=DAILY;BYHOUR=6' }, scheduleMessages.rule, 'rule'],
      [{ windowStart: '06:00', windowEnd: null }, scheduleMessages.window, 'windowEnd'],
      [{ windowStart: '10:00', windowEnd: '06:00' }, scheduleMessages.window, 'windowEnd'],
      [{ windowStart: '25:00', windowEnd: '26:00' }, scheduleMessages.window, 'windowStart'],
      [{ endDate: '2026-01-01' }, scheduleMessages.endDate, 'endDate'],
      [{ assigneeIDs: [viewer.id] }, scheduleMessages.assignee, 'assigneeIDs'],
      [{ cardID: s.offBoard.id }, scheduleMessages.cardNotOnBoard, 'cardID'],
    ];
    for (const [overrides, errMsg, errField] of cases) {
      const answer = await call(env, 'addSchedule', dailyBody(s, overrides), admin);
      expect(answer, JSON.stringify(overrides)).toMatchObject({ status: 400, body: { errMsg, errField } });
    }
    const range = await call(
      env,
      'getScheduleOccurrences',
      { start: '2026-01-01T00:00:00Z', end: '2026-04-01T00:00:00Z' },
      admin,
    );
    expect(range).toMatchObject({ status: 400, body: { errMsg: rangeMessage(62) } });
    const backwards = await call(
      env,
      'getScheduleOccurrences',
      { start: '2026-01-10T00:00:00Z', end: '2026-01-01T00:00:00Z', boardID: s.board.id },
      { cookie: s.team.viewer.cookie },
    );
    expect(backwards).toMatchObject({
      status: 400,
      body: { errMsg: rangeMessage(62), errField: 'end' },
    });
    const longCompliance = await call(
      env,
      'getScheduleCompliance',
      { start: '2025-01-01T00:00:00Z', end: '2026-03-01T00:00:00Z' },
      admin,
    );
    expect(longCompliance).toMatchObject({ status: 400, body: { errMsg: rangeMessage(366) } });
    const unknownField = await call(env, 'getBoardScheduleCounts', { boardID: s.board.id }, admin);
    expect(unknownField.status).toBe(400);
    const notADate = await call(env, 'addSchedule', dailyBody(s, { startDate: '2026-02-30x' }), admin);
    expect(notADate).toMatchObject({ status: 400, body: { errField: 'startDate' } });
    expect(await scheduleRows(env, s.team.org.id)).toEqual([]);
    // At most five schedules of one card on a board.
    for (let i = 0; i < 5; i += 1) await addDaily(env, s);
    expect(await call(env, 'addSchedule', dailyBody(s), admin)).toMatchObject({
      status: 409,
      body: { errMsg: scheduleMessages.tooMany },
    });
  });

  it('applies a retried add-schedule and edit-schedule once (same Idempotency-Key)', async () => {
    const s = await setup(env);
    const options = { cookie: s.team.admin.cookie, idempotencyKey: `schedule-${s.board.id}` };
    const first = await call(env, 'addSchedule', dailyBody(s), options);
    const retry = await call(env, 'addSchedule', dailyBody(s), options);
    expect(first.status).toBe(200);
    expect(retry).toMatchObject({ status: 200, body: first.body });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await scheduleRows(env, s.team.org.id)).toHaveLength(1);

    const edit = {
      scheduleID: first.body.schedule.id,
      rule: 'FREQ=WEEKLY;BYDAY=MO',
      startDate: '2026-01-12',
    };
    const editOptions = { cookie: s.team.admin.cookie, idempotencyKey: `edit-${first.body.schedule.id}` };
    const edited = await call(env, 'editSchedule', edit, editOptions);
    const again = await call(env, 'editSchedule', edit, editOptions);
    expect(edited.body.schedule).toMatchObject({
      rule: 'FREQ=WEEKLY;BYDAY=MO',
      windowStart: '00:00',
      assignees: [],
    });
    expect(again).toMatchObject({ status: 200, body: edited.body });
    expect(again.headers['idempotent-replayed']).toBe('true');

    const deleted = await call(
      env,
      'deleteSchedule',
      { scheduleID: edit.scheduleID },
      { cookie: s.team.admin.cookie },
    );
    expect(deleted).toMatchObject({ status: 200, body: { id: edit.scheduleID } });
    expect(await scheduleRows(env, s.team.org.id)).toEqual([]);
  });

  it('shows an evaluator the schedules assigned to them, an administrator all of them', async () => {
    const s = await setup(env);
    const mine = await addDaily(env, s);
    const notMine = await addDaily(env, s, { assigneeIDs: [s.team.admin.id] });
    const ids = async (cookie: string) =>
      ((await call(env, 'getSchedules', {}, { cookie })).body.schedules as { id: number }[]).map((x) => x.id);
    expect(await ids(s.team.evaluator.cookie)).toEqual([mine.id]);
    expect(await ids(s.team.admin.cookie)).toEqual([mine.id, notMine.id]);
  });

  it('computes Done, Late, Missed and Due from the evaluations, for every member on the board', async () => {
    env.clock.set(NOON_15_JAN);
    const s = await setup(env);
    const schedule = await addDaily(env, s);
    await evaluate(env, s, at('2026-01-12T07:00:00Z')); // in Monday's window: Done
    await evaluate(env, s, at('2026-01-13T13:00:00Z')); // at Tuesday's end: Late
    await evaluate(env, s, at('2026-01-14T05:59:59Z')); // before Wednesday's window: Late for Tuesday only
    // Wednesday: nothing in the window, nothing before Thursday 06:00: Missed. Thursday, noon: Due.
    const range = { start: '2026-01-12T00:00:00Z', end: '2026-01-16T00:00:00Z' };
    for (const cookie of [s.team.viewer.cookie, s.team.evaluator.cookie, s.team.admin.cookie]) {
      const answer = await call(env, 'getScheduleOccurrences', { ...range, boardID: s.board.id }, { cookie });
      expect(answer.status).toBe(200);
      expect(answer.body.timeZone).toBe('UTC');
      expect(
        answer.body.occurrences.map((o: { date: string; status: string; completedTime: string | null }) => [
          o.date,
          o.status,
          o.completedTime,
        ]),
      ).toEqual([
        ['2026-01-12', 'Done', '2026-01-12T07:00:00.000Z'],
        ['2026-01-13', 'Late', '2026-01-13T13:00:00.000Z'],
        ['2026-01-14', 'Missed', null],
        ['2026-01-15', 'Due', null],
      ]);
      expect(answer.body.occurrences[0]).toMatchObject({
        scheduleID: schedule.id,
        boardName: 'Kitchen',
        cardName: 'Fridge temperatures',
        start: '2026-01-12T06:00:00.000Z',
        end: '2026-01-12T13:00:00.000Z',
        assignedToMe: cookie === s.team.evaluator.cookie,
      });
    }
    // The Schedule tab (no board): an evaluator's own, a viewer's none.
    const tab = async (cookie: string) =>
      (await call(env, 'getScheduleOccurrences', range, { cookie })).body.occurrences.length;
    expect(await tab(s.team.evaluator.cookie)).toBe(4);
    expect(await tab(s.team.viewer.cookie)).toBe(0);

    // The boards panel: one due today, one missed this week (from Sunday 11 January).
    const counts = await call(env, 'getBoardScheduleCounts', {}, { cookie: s.team.viewer.cookie });
    expect(counts.body.boards).toEqual([{ boardID: s.board.id, dueToday: 1, missedThisWeek: 1 }]);

    // Compliance over the ended ones: 1 on time of 3.
    const compliance = await call(
      env,
      'getScheduleCompliance',
      { ...range, boardID: s.board.id },
      { cookie: s.team.admin.cookie },
    );
    expect(compliance.body.rows).toEqual([
      { id: s.card.id, name: 'Fridge temperatures', done: 1, late: 1, missed: 1, rate: 1 / 3 },
    ]);
    const byBoard = await call(env, 'getScheduleCompliance', range, { cookie: s.team.admin.cookie });
    expect(byBoard.body.rows).toEqual([
      { id: s.board.id, name: 'Kitchen', done: 1, late: 1, missed: 1, rate: 1 / 3 },
    ]);
    expect(byBoard.body.total).toEqual({ done: 1, late: 1, missed: 1, rate: 1 / 3 });

    // Later on Thursday an evaluation makes it Done; a card taken off the board takes its schedule away.
    await evaluate(env, s, at('2026-01-15T12:10:00Z'));
    env.clock.set(at('2026-01-15T12:20:00Z'));
    const after = await call(env, 'getBoardScheduleCounts', {}, { cookie: s.team.viewer.cookie });
    expect(after.body.boards).toEqual([{ boardID: s.board.id, dueToday: 0, missedThisWeek: 1 }]);
    await env.db.deleteFrom('board_cards').where('org_id', '=', s.team.org.id).execute();
    const gone = await call(
      env,
      'getScheduleOccurrences',
      { ...range, boardID: s.board.id },
      { cookie: s.team.admin.cookie },
    );
    expect(gone.body.occurrences).toEqual([]);
  });

  it("counts days and windows in the organisation's zone, across its clock change", async () => {
    env.clock.set(at('2026-03-09T12:00:00Z'));
    const team = await buildTeam(env, { timeZone: 'America/New_York' });
    const card = await buildCard(env, team.org, { name: 'Opening check' });
    const board = await buildBoard(env, team.org, { name: 'Store', cardIds: [card.id] });
    const added = await call(
      env,
      'addSchedule',
      {
        boardID: board.id,
        cardID: card.id,
        rule: 'FREQ=DAILY',
        startDate: '2026-03-06',
        windowStart: '06:00',
        windowEnd: '10:00',
      },
      { cookie: team.admin.cookie },
    );
    expect(added.status).toBe(200);
    // Done on Saturday 7 March at 06:30 EST (11:30Z); Sunday 8th at 06:30 EDT (10:30Z) is in its window too.
    for (const completedAt of [at('2026-03-07T11:30:00Z'), at('2026-03-08T10:30:00Z')])
      await buildEvaluation(env, team.org, { board, card, user: team.evaluator, completedAt, pass: true });
    const answer = await call(
      env,
      'getScheduleOccurrences',
      { start: '2026-03-07T00:00:00Z', end: '2026-03-10T00:00:00Z', boardID: board.id },
      { cookie: team.viewer.cookie },
    );
    expect(answer.body.timeZone).toBe('America/New_York');
    expect(
      answer.body.occurrences.map((o: { date: string; start: string; status: string }) => [
        o.date,
        o.start,
        o.status,
      ]),
    ).toEqual([
      ['2026-03-07', '2026-03-07T11:00:00.000Z', 'Done'],
      ['2026-03-08', '2026-03-08T10:00:00.000Z', 'Done'],
      // Monday 9th: 06:00-10:00 EDT ended at 14:00Z; at 12:00Z it is still open.
      ['2026-03-09', '2026-03-09T10:00:00.000Z', 'Due'],
    ]);
    const counts = await call(env, 'getBoardScheduleCounts', {}, { cookie: team.viewer.cookie });
    expect(counts.body).toEqual({
      boards: [{ boardID: board.id, dueToday: 1, missedThisWeek: 0 }],
      timeZone: 'America/New_York',
    });
  });

  it('mails each reminder and digest once when two runs claim the same occurrences at once', async () => {
    env.clock.set(at('2026-01-14T12:00:00Z'));
    const s = await setup(env);
    const second = await buildUser(env, s.team.org, { role: 'evaluator' });
    await addDaily(env, s, { assigneeIDs: [s.team.evaluator.id, second.id] });
    const subjects = (email: string) =>
      env.smtp
        .to(email)
        .map((m) => m.subject)
        .sort();

    // Thursday 06:01: Wednesday's window (06:00-13:00, after the schedule was made at 12:00) ended
    // missed; Thursday's is open; the digest covers Wednesday.
    env.clock.set(at('2026-01-15T06:01:00Z'));
    const runs = await Promise.all([
      sendScheduleReminders(env.services, env.clock.now(), 'first'),
      sendScheduleReminders(env.services, env.clock.now(), 'second'),
      sendScheduleReminders(env.services, env.clock.now(), 'third'),
    ]);
    expect(runs.flatMap((r) => r.errors)).toEqual([]);
    const expected = [
      'Check due now: Fridge temperatures on Kitchen',
      'Check missed: Fridge temperatures on Kitchen',
    ];
    expect(subjects(s.team.evaluator.email)).toEqual(expected);
    expect(subjects(second.email)).toEqual(expected);
    expect(subjects(s.team.admin.email)).toEqual(['Missed checks on 2026-01-14: 1 in ' + s.team.org.name]);
    expect(subjects(s.team.owner.email)).toHaveLength(1);
    expect(env.smtp.to(s.team.evaluator.email).at(-1)!.text).toContain('When: 2026-01-1');

    // Later runs send nothing more; an evaluation in the window means no reminder the next day's… until
    // the next window opens.
    await sendScheduleReminders(env.services, env.clock.now() + 60_000, 'fourth');
    expect(subjects(s.team.evaluator.email)).toHaveLength(2);
    await evaluate(env, s, at('2026-01-15T07:00:00Z'));
    await sendScheduleReminders(env.services, at('2026-01-15T14:00:00Z'), 'fifth');
    expect(subjects(s.team.evaluator.email)).toHaveLength(2);
    await sendScheduleReminders(env.services, at('2026-01-16T06:05:00Z'), 'sixth');
    expect(subjects(s.team.evaluator.email)).toHaveLength(3);
    // One row per mail, i.e. per notice and assignee.
    const notices = await env.db
      .selectFrom('schedule_notice_recipients')
      .select(['kind', 'user_id', 'sent_at'])
      .where('org_id', '=', s.team.org.id)
      .orderBy('occurrence_start')
      .orderBy('kind')
      .orderBy('user_id')
      .execute();
    const [a, b] = [s.team.evaluator.id, second.id].sort((x, y) => x - y);
    expect(notices.map((n) => [n.kind, n.user_id])).toEqual([
      ['missed', a],
      ['missed', b],
      ['open', a],
      ['open', b],
      ['open', a],
      ['open', b],
    ]);
    expect(notices.every((n) => n.sent_at !== null)).toBe(true);
  });

  it('sends nothing about windows that ended before the schedule was made, and claims nothing without mail', async () => {
    env.clock.set(NOON_15_JAN);
    const s = await setup(env);
    await addDaily(env, s, { windowStart: '06:00', windowEnd: '10:00' });
    const quiet = await sendScheduleReminders(
      { ...env.services, config: { ...env.services.config, smtpUrl: undefined } },
      env.clock.now() + HOUR,
    );
    expect(quiet).toMatchObject({ open: 0, missed: 0, digests: 0 });
    await sendScheduleReminders(env.services, env.clock.now() + HOUR, 'only');
    expect(env.smtp.to(s.team.evaluator.email)).toEqual([]);
    expect(env.smtp.to(s.team.admin.email)).toEqual([]);
    const notices = await env.db
      .selectFrom('schedule_notice_recipients')
      .selectAll()
      .where('org_id', '=', s.team.org.id)
      .execute();
    expect(notices).toEqual([]);
    expect(
      await env.db
        .selectFrom('schedule_digest_recipients')
        .selectAll()
        .where('org_id', '=', s.team.org.id)
        .execute(),
    ).toEqual([]);
  });

  it('a send refused for one recipient is retried for that recipient only (decision 0714)', async () => {
    env.clock.set(at('2026-01-14T12:00:00Z'));
    const s = await setup(env);
    const second = await buildUser(env, s.team.org, { role: 'evaluator' });
    await addDaily(env, s, { assigneeIDs: [s.team.evaluator.id, second.id] });
    const subjects = (email: string) =>
      env.smtp
        .to(email)
        .map((m) => m.subject)
        .sort();
    const expected = [
      'Check due now: Fridge temperatures on Kitchen',
      'Check missed: Fridge temperatures on Kitchen',
    ];

    // The real SMTP server refuses the second assignee and the administrator on the first pass.
    env.smtp.refuse.add(second.email.toLowerCase());
    env.smtp.refuse.add(s.team.admin.email.toLowerCase());
    const first = await sendScheduleReminders(env.services, at('2026-01-15T06:01:00Z'), 'first');
    expect(first.errors).toHaveLength(3);
    expect(first).toMatchObject({ open: 1, missed: 1, digests: 1 });
    expect(subjects(s.team.evaluator.email)).toEqual(expected);
    expect(subjects(second.email)).toEqual([]);
    expect(subjects(s.team.owner.email)).toHaveLength(1);
    expect(subjects(s.team.admin.email)).toEqual([]);
    // The refused mails' claims were given back: nothing is held for them.
    const held = await env.db
      .selectFrom('schedule_notice_recipients')
      .select('user_id')
      .where('org_id', '=', s.team.org.id)
      .where('user_id', '=', second.id)
      .execute();
    expect(held).toEqual([]);

    // The retry mails only those not yet mailed, once each.
    env.smtp.refuse.clear();
    const retry = await sendScheduleReminders(env.services, at('2026-01-15T06:06:00Z'), 'retry');
    expect(retry).toMatchObject({ open: 1, missed: 1, digests: 1, errors: [] });
    expect(subjects(s.team.evaluator.email)).toEqual(expected);
    expect(subjects(second.email)).toEqual(expected);
    expect(subjects(s.team.owner.email)).toHaveLength(1);
    expect(subjects(s.team.admin.email)).toEqual(['Missed checks on 2026-01-14: 1 in ' + s.team.org.name]);
    const again = await sendScheduleReminders(env.services, at('2026-01-15T06:11:00Z'), 'again');
    expect(again).toMatchObject({ open: 0, missed: 0, digests: 0, errors: [] });
    const people = [s.team.evaluator.email, second.email, s.team.owner.email, s.team.admin.email];
    expect(people.map((p) => env.smtp.to(p).length)).toEqual([2, 2, 1, 1]);
  });

  it('after a process dies between recipients, the others are mailed once and its claim is taken over later', async () => {
    env.clock.set(at('2026-01-14T12:00:00Z'));
    const s = await setup(env);
    const second = await buildUser(env, s.team.org, { role: 'evaluator' });
    const third = await buildUser(env, s.team.org, { role: 'evaluator' });
    const schedule = await addDaily(env, s, {
      assigneeIDs: [s.team.evaluator.id, second.id, third.id],
      windowStart: '06:00',
      windowEnd: '10:00',
    });
    // Thursday's window opened at 06:00. A process mailed the evaluator, claimed the second assignee and
    // died before sending (what its rows then say); the third it never reached.
    const start = at('2026-01-15T06:00:00Z');
    const died = at('2026-01-15T06:00:30Z');
    const row = {
      org_id: s.team.org.id,
      schedule_id: schedule.id,
      occurrence_start: start,
      kind: 'open' as const,
    };
    await env.db
      .insertInto('schedule_notice_recipients')
      .values([
        { ...row, user_id: s.team.evaluator.id, claimed_by: 'dead', sent_at: died, created_at: died },
        { ...row, user_id: second.id, claimed_by: 'dead', sent_at: null, created_at: died },
      ])
      .execute();
    const opens = (email: string) => env.smtp.to(email).filter((m) => m.subject.startsWith('Check due now'));

    // Five minutes later, on two instances at once: only the third is mailed; the dead claim is still young.
    const next = await Promise.all([
      sendScheduleReminders(env.services, at('2026-01-15T06:05:00Z'), 'a'),
      sendScheduleReminders(env.services, at('2026-01-15T06:05:00Z'), 'b'),
    ]);
    expect(next.flatMap((r) => r.errors)).toEqual([]);
    expect(next[0]!.open + next[1]!.open).toBe(1);
    expect(opens(s.team.evaluator.email)).toHaveLength(0);
    expect(opens(second.email)).toHaveLength(0);
    expect(opens(third.email)).toHaveLength(1);

    // Past STALE_CLAIM_MS the dead claim is taken over by one of two instances; nobody gets a second mail.
    const later = await Promise.all([
      sendScheduleReminders(env.services, at('2026-01-15T06:20:00Z'), 'c'),
      sendScheduleReminders(env.services, at('2026-01-15T06:20:00Z'), 'd'),
    ]);
    expect(later.flatMap((r) => r.errors)).toEqual([]);
    expect(later[0]!.open + later[1]!.open).toBe(1);
    expect(opens(s.team.evaluator.email)).toHaveLength(0);
    expect(opens(second.email)).toHaveLength(1);
    expect(opens(third.email)).toHaveLength(1);
    const rows = await env.db
      .selectFrom('schedule_notice_recipients')
      .select(['user_id', 'sent_at'])
      .where('org_id', '=', s.team.org.id)
      .where('kind', '=', 'open')
      .execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.sent_at !== null)).toBe(true);
  });
});
