import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SECRET_ANSWER_MESSAGE } from '../http/idempotency.ts';
import { messages } from '../modules/webhooks/service.ts';
import { buildBoard, buildCard, buildTeam } from '../test/factories.ts';
import { call, describeEachDatabase } from '../test/harness.ts';
import { guardedLookup, messages as addressMessages } from './address.ts';
import { deliverDue } from './deliver.ts';

/** What a receiver saw: headers, body, and whether the signature checked out (verified here, not by our code). */
interface Received {
  delivery: string;
  event: string;
  body: { id: string; type: string; data: Record<string, unknown> };
  signed: boolean;
}

/** A webhook receiver as a customer would write it: checks the Stripe-style signature with its secret. */
class Receiver {
  server: Server;
  received: Received[] = [];
  answers: number[] = [];
  secret = '';
  constructor() {
    this.server = createServer((request, response) => {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (raw += chunk));
      request.on('end', () => {
        const header = String(request.headers['checkboard-signature'] ?? '');
        const t = /t=(\d+)/.exec(header)?.[1] ?? '';
        const v1 = Buffer.from(/v1=([0-9a-f]+)/.exec(header)?.[1] ?? '', 'hex');
        const expected = createHmac('sha256', this.secret).update(`${t}.${raw}`).digest();
        this.received.push({
          delivery: String(request.headers['checkboard-delivery']),
          event: String(request.headers['checkboard-event']),
          body: JSON.parse(raw),
          signed: v1.length === expected.length && timingSafeEqual(v1, expected),
        });
        response.statusCode = this.answers.shift() ?? 200;
        response.end(response.statusCode === 200 ? 'ok' : 'try later');
      });
    });
  }
  get url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
}

describeEachDatabase('webhooks', (env) => {
  const receiver = new Receiver();
  beforeAll(() => new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));

  async function setUp(events: string[]) {
    receiver.received = [];
    receiver.answers = [];
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, {
      items: [{ type: 'pass_fail', content: '<p>Guard on</p>' }],
    });
    const board = await buildBoard(env, team.org, { cardIds: [card.id] });
    const added = await call(
      env,
      'addWebhook',
      { url: receiver.url, description: 'Our ERP', events },
      { cookie: team.admin.cookie },
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    receiver.secret = added.body.secret;
    return { team, card, board, webhookId: added.body.webhook.id as number };
  }

  async function evaluate(t: Awaited<ReturnType<typeof setUp>>, pass: boolean) {
    const cookie = t.team.evaluator.cookie;
    const started = await call(env, 'addEvaluation', { boardID: t.board.id, cardID: t.card.id }, { cookie });
    const done = await call(
      env,
      'addResults',
      { evalID: started.body.id, results: [{ item_id: t.card.itemIds[0]!, pass }] },
      { cookie },
    );
    expect(done.status).toBe(200);
    return started.body.id as number;
  }

  const deliveriesOf = async (t: { team: { admin: { cookie: string } }; webhookId: number }) =>
    (await call(env, 'getWebhookDeliveries', { webhookID: t.webhookId }, { cookie: t.team.admin.cookie }))
      .body.deliveries as {
      deliveryID: string;
      status: string;
      attempts: number;
      lastStatusCode: number | null;
    }[];

  it('tells a failed evaluation as completed and failed, signed, once each', async () => {
    const t = await setUp(['evaluation.completed', 'evaluation.failed']);
    const evalId = await evaluate(t, false);
    expect(receiver.received).toEqual([]); // queued, not sent inside the request
    expect(await deliverDue(env.services)).toBe(2);
    expect(receiver.received.map((r) => r.event).sort()).toEqual([
      'evaluation.completed',
      'evaluation.failed',
    ]);
    for (const got of receiver.received) {
      expect(got.signed).toBe(true);
      expect(got.body.id).toBe(got.delivery);
      expect(got.body.type).toBe(got.event);
      expect(got.body.data.evaluation).toMatchObject({
        id: evalId,
        boardID: t.board.id,
        cardID: t.card.id,
        userName: t.team.evaluator.email,
        pass: false,
        results: [{ item_id: t.card.itemIds[0], pass: false, na: false }],
      });
    }
    expect(await deliverDue(env.services)).toBe(0);
    expect((await deliveriesOf(t)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });

  it('queues a completion only while an endpoint of its organisation takes deliveries', async () => {
    const t = await setUp(['evaluation.completed']);
    const cookie = t.team.admin.cookie;
    const queued = async (orgId: number) =>
      (await env.db.selectFrom('webhook_deliveries').select('event').where('org_id', '=', orgId).execute())
        .length;
    const setEnabled = async (enabled: boolean) =>
      expect(
        (
          await call(
            env,
            'editWebhook',
            {
              id: t.webhookId,
              url: receiver.url,
              description: 'Our ERP',
              events: ['evaluation.completed'],
              enabled,
            },
            { cookie },
          )
        ).status,
      ).toBe(200);

    await setEnabled(false);
    await evaluate(t, true);
    expect(await queued(t.team.org.id)).toBe(0);
    await setEnabled(true);
    await evaluate(t, true);
    expect(await queued(t.team.org.id)).toBe(1);
    expect((await call(env, 'deleteWebhook', { id: t.webhookId }, { cookie })).status).toBe(200);
    await evaluate(t, false);
    expect(await queued(t.team.org.id)).toBe(1);

    // Another organisation, without an endpoint, while this one has a live one: its completions queue nothing.
    const live = await setUp(['evaluation.completed']);
    const other = await buildTeam(env);
    const card = await buildCard(env, other.org, {
      items: [{ type: 'pass_fail', content: '<p>Guard on</p>' }],
    });
    const board = await buildBoard(env, other.org, { cardIds: [card.id] });
    await evaluate({ team: other, card, board, webhookId: 0 }, true);
    expect(await queued(other.org.id)).toBe(0);
    await evaluate(live, true);
    expect(await queued(live.team.org.id)).toBe(1);
    expect(await deliverDue(env.services)).toBe(2); // sent, so the tests after this one start with none due
  });

  it('retries after a 500 with backoff, with the same delivery id, and gives up after 24 hours', async () => {
    const t = await setUp(['evaluation.completed']);
    receiver.answers = [500];
    await evaluate(t, true);
    await deliverDue(env.services);
    let [delivery] = await deliveriesOf(t);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });
    expect(await deliverDue(env.services)).toBe(0); // not due before its backoff
    env.clock.advance(30_000);
    expect(await deliverDue(env.services)).toBe(1);
    [delivery] = await deliveriesOf(t);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200 });
    expect(receiver.received.map((r) => r.delivery)).toEqual([delivery!.deliveryID, delivery!.deliveryID]);

    receiver.received = [];
    receiver.answers = Array(100).fill(500);
    await evaluate(t, true);
    for (let hour = 0; hour < 26; hour++) {
      await deliverDue(env.services);
      env.clock.advance(60 * 60_000);
    }
    // (The session has long ended: read the log from the database.)
    const last = await env.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where('endpoint_id', '=', t.webhookId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.status).toBe('failed');
    expect(last.attempts).toBeGreaterThan(5);
    expect(receiver.received.length).toBe(last.attempts);
  });

  it('tells an action raised from a failed item and its closing', async () => {
    const t = await setUp(['action.created', 'action.closed']);
    const evalId = await evaluate(t, false);
    const cookie = t.team.evaluator.cookie;
    const raised = await call(
      env,
      'addAction',
      {
        boardID: t.board.id,
        evalID: evalId,
        itemID: t.card.itemIds[0]!,
        title: 'Guard is off',
        assigneeID: t.team.evaluator.id,
        dueDate: '2026-03-01',
        priority: 'High',
      },
      { cookie },
    );
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    const actionID = raised.body.action.id;
    expect((await call(env, 'completeAction', { actionID, note: 'Refitted' }, { cookie })).status).toBe(200);
    await deliverDue(env.services);
    expect(receiver.received.map((r) => r.event)).toEqual(['action.created', 'action.closed']);
    expect(receiver.received.every((r) => r.signed)).toBe(true);
    expect(receiver.received[0]!.body.data.action).toMatchObject({
      id: actionID,
      status: 'Open',
      evalID: evalId,
    });
    expect(receiver.received[1]!.body.data.action).toMatchObject({ status: 'Done', closeNote: 'Refitted' });
    expect(receiver.received[1]!.body.data.action).not.toHaveProperty('isAssignee');
  });

  it('two workers at once send each delivery once', async () => {
    const t = await setUp(['evaluation.completed']);
    for (let i = 0; i < 5; i++) await evaluate(t, true);
    await Promise.all([deliverDue(env.services), deliverDue(env.services), deliverDue(env.services)]);
    const ids = receiver.received.map((r) => r.delivery);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
  });

  it('sends a delivery again on request, and nothing for a deleted endpoint', async () => {
    const t = await setUp(['feedback.added']);
    const cookie = t.team.admin.cookie;
    await call(
      env,
      'addFeedback',
      { evaluationID: null, boardID: t.board.id, content: 'Spill by door 3' },
      { cookie },
    );
    await deliverDue(env.services);
    expect(receiver.received[0]!.body.data.feedback).toMatchObject({
      content: 'Spill by door 3',
      boardID: t.board.id,
    });
    const [delivery] = (await call(env, 'getWebhookDeliveries', { webhookID: t.webhookId }, { cookie })).body
      .deliveries;
    const resent = await call(env, 'resendWebhookDelivery', { id: delivery.id }, { cookie });
    expect(resent.body.delivery).toMatchObject({ status: 'pending' });
    await deliverDue(env.services);
    expect(receiver.received.map((r) => r.delivery)).toEqual([delivery.deliveryID, delivery.deliveryID]);

    await call(
      env,
      'addFeedback',
      { evaluationID: null, boardID: t.board.id, content: 'Second' },
      { cookie },
    );
    expect((await call(env, 'deleteWebhook', { id: t.webhookId }, { cookie })).status).toBe(200);
    await deliverDue(env.services);
    expect(receiver.received).toHaveLength(2);
    const log = await env.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'last_response'])
      .where('endpoint_id', '=', t.webhookId)
      .orderBy('id')
      .execute();
    expect(log.at(-1)).toEqual({ status: 'failed', last_response: 'The endpoint was disabled or deleted.' });
  });

  it('in production refuses plain http and private, loopback and link-local addresses', async () => {
    const team = await buildTeam(env);
    env.config.webhooksAllowPrivate = false;
    try {
      for (const [url, errMsg] of [
        ['http://hooks.example.com/x', addressMessages.httpsOnly],
        ['https://127.0.0.1/x', addressMessages.privateAddress],
        ['https://10.1.2.3/x', addressMessages.privateAddress],
        ['https://169.254.169.254/latest/meta-data', addressMessages.privateAddress],
        ['https://[::1]/x', addressMessages.privateAddress],
        ['https://[::ffff:192.168.1.1]/x', addressMessages.privateAddress],
        ['https://localhost/x', addressMessages.privateAddress],
        ['https://user:pw@hooks.example.com/x', addressMessages.credentials],
        ['not a url', addressMessages.badUrl],
      ] as const) {
        const answer = await call(
          env,
          'addWebhook',
          { url, description: '', events: ['evaluation.completed'] },
          { cookie: team.admin.cookie },
        );
        expect(answer, url).toMatchObject({ status: 400, body: { errMsg, errField: 'url' } });
      }
      // A public name that resolves to a private address is refused when connecting.
      const resolved = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
        guardedLookup(false)('localhost', {}, (error) => resolve(error)),
      );
      expect(resolved?.code).toBe('EPRIVATE');
    } finally {
      env.config.webhooksAllowPrivate = true;
    }
    const rows = await env.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('org_id', '=', team.org.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses bad input, shows the secret once, and keeps another organisation’s log to itself', async () => {
    const t = await setUp(['evaluation.completed']);
    const cookie = t.team.admin.cookie;
    const none = await call(
      env,
      'addWebhook',
      { url: receiver.url, description: '', events: [] },
      { cookie },
    );
    expect(none).toMatchObject({
      status: 400,
      body: { errMsg: 'Choose at least one event.', errField: 'events' },
    });
    const odd = await call(
      env,
      'addWebhook',
      { url: receiver.url, description: '', events: ['board.burned'] },
      { cookie },
    );
    expect(odd.status).toBe(400);

    const body = { url: receiver.url, description: 'Retry', events: ['feedback.added'] };
    const first = await call(env, 'addWebhook', body, { cookie, idempotencyKey: 'hook-1' });
    const again = await call(env, 'addWebhook', body, { cookie, idempotencyKey: 'hook-1' });
    expect(first.body.secret).toMatch(/^whsec_/);
    expect(again).toMatchObject({ status: 409, body: { errMsg: SECRET_ANSWER_MESSAGE } });
    const listed = await call(env, 'getWebhooks', {}, { cookie });
    expect(listed.body.webhooks).toHaveLength(2);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    const other = await buildTeam(env);
    const theirs = await call(
      env,
      'getWebhookDeliveries',
      { webhookID: t.webhookId },
      { cookie: other.owner.cookie },
    );
    expect(theirs).toMatchObject({ status: 404, body: { errMsg: messages.notFound } });
    const edit = await call(
      env,
      'editWebhook',
      {
        id: t.webhookId,
        url: receiver.url,
        description: 'Mine now',
        events: ['feedback.added'],
        enabled: false,
      },
      { cookie: other.owner.cookie },
    );
    expect(edit.status).toBe(404);
    const [mine] = (await call(env, 'getWebhooks', {}, { cookie })).body.webhooks;
    expect(mine).toMatchObject({ description: 'Our ERP', enabled: true });
  });
});
