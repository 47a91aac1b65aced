import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { messages } from './service.ts';
import { STRIPE_WEBHOOK_PATH } from './webhook.ts';

/** A stand-in for api.stripe.com on loopback: Checkout Sessions, created and read back. */
class FakeStripe {
  sessions = new Map<
    string,
    { id: string; url: string; status: string; customer: string | null; subscription: string | null }
  >();
  requests: { method: string; path: string; form: URLSearchParams; auth: string | undefined }[] = [];
  failing = false;
  private server: Server | undefined;
  url = '';

  async start() {
    this.server = createServer(async (request, response) => {
      const body = await read(request);
      const path = request.url ?? '';
      this.requests.push({
        method: request.method ?? '',
        path,
        form: new URLSearchParams(body),
        auth: request.headers.authorization,
      });
      if (this.failing) return send(response, 500, { error: { message: 'down' } });
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${this.sessions.size + 1}`;
        const session = {
          id,
          url: `https://checkout.stripe.test/pay/${id}`,
          status: 'open',
          customer: null,
          subscription: null,
        };
        this.sessions.set(id, session);
        return send(response, 200, session);
      }
      const match = path.match(/^\/v1\/checkout\/sessions\/([\w-]+)$/);
      if (request.method === 'GET' && match && this.sessions.has(match[1]!))
        return send(response, 200, this.sessions.get(match[1]!));
      return send(response, 404, { error: { message: 'No such resource' } });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  pay(id: string) {
    Object.assign(this.sessions.get(id)!, {
      status: 'complete',
      customer: `cus_${id}`,
      subscription: `sub_${id}`,
    });
  }

  stop() {
    return new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

function read(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
  });
}

function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** A signature header as Stripe would send it, made with Stripe's own test helper at `nowMs`. */
function signWebhookPayload(payload: string, secret: string, nowMs: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(nowMs / 1000) });
}

const stripe = new FakeStripe();
const WEBHOOK_SECRET = 'whsec_test_secret';
beforeAll(() => stripe.start());
afterAll(() => stripe.stop());

async function webhook(env: TestEnv, event: unknown, signature?: string) {
  const payload = JSON.stringify(event);
  return env.app.inject({
    method: 'POST',
    url: STRIPE_WEBHOOK_PATH,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signature ?? signWebhookPayload(payload, WEBHOOK_SECRET, env.clock.now()),
    },
    payload,
  });
}

async function orgState(env: TestEnv, orgId: number) {
  return env.db
    .selectFrom('organizations')
    .select(['subscription_status', 'num_departments', 'billing_subscription_id'])
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
}

describeEachDatabase(
  'billing with Stripe',
  (env) => {
    it('starts a Stripe Checkout for the departments chosen, and opens the organisation once it is paid', async () => {
      const team = await buildTeam(env, { paid: false });
      const selected = await call(
        env,
        'selectSubscription',
        { numDepartments: 6 },
        { cookie: team.owner.cookie },
      );
      expect(selected.status).toBe(200);
      const request = stripe.requests.at(-1)!;
      expect(request.auth).toBe('Bearer sk_test_checkboard');
      expect(Object.fromEntries(request.form)).toMatchObject({
        mode: 'subscription',
        'line_items[0][price]': 'price_departments',
        'line_items[0][quantity]': '6',
        success_url: 'http://checkboard.test/create-app?checkoutID={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://checkboard.test/plans',
        client_reference_id: String(team.org.id),
        customer_email: team.owner.email,
      });
      const sessionId = [...stripe.sessions.keys()].at(-1)!;
      expect(selected.body).toEqual({ url: `https://checkout.stripe.test/pay/${sessionId}` });

      // Back from Stripe before paying: still unpaid.
      const early = await call(env, 'createApp', { checkoutID: sessionId }, { cookie: team.owner.cookie });
      expect(early).toMatchObject({ status: 409, body: { errMsg: messages.checkoutOpen } });
      expect((await orgState(env, team.org.id)).subscription_status).toBe('none');

      stripe.pay(sessionId);
      const created = await call(env, 'createApp', { checkoutID: sessionId }, { cookie: team.owner.cookie });
      expect(created).toMatchObject({
        status: 200,
        body: { homeURL: `/q/${encodeURIComponent(team.org.name)}/home` },
      });
      expect(await orgState(env, team.org.id)).toEqual({
        subscription_status: 'active',
        num_departments: 6,
        billing_subscription_id: `sub_${sessionId}`,
      });
    });

    it('opens the organisation from the checkout.session.completed webhook alone', async () => {
      const team = await buildTeam(env, { paid: false });
      await call(env, 'selectSubscription', { numDepartments: 2 }, { cookie: team.owner.cookie });
      const sessionId = [...stripe.sessions.keys()].at(-1)!;
      const answer = await webhook(env, {
        type: 'checkout.session.completed',
        data: { object: { id: sessionId, customer: 'cus_1', subscription: 'sub_hook' } },
      });
      expect(answer.statusCode).toBe(200);
      expect(await orgState(env, team.org.id)).toEqual({
        subscription_status: 'active',
        num_departments: 2,
        billing_subscription_id: 'sub_hook',
      });
    });

    it('follows the subscription: past due, back to active with a new quantity, then cancelled (402)', async () => {
      const team = await buildTeam(env, { paid: false });
      await call(env, 'selectSubscription', { numDepartments: 3 }, { cookie: team.owner.cookie });
      const sessionId = [...stripe.sessions.keys()].at(-1)!;
      await webhook(env, {
        type: 'checkout.session.completed',
        data: { object: { id: sessionId, customer: 'cus_2', subscription: `sub_${team.org.id}` } },
      });
      const subscription = (status: string, quantity = 3) => ({
        id: `sub_${team.org.id}`,
        status,
        items: { data: [{ quantity }] },
      });

      await webhook(env, {
        type: 'customer.subscription.updated',
        data: { object: subscription('past_due') },
      });
      expect((await orgState(env, team.org.id)).subscription_status).toBe('past_due');
      expect((await call(env, 'getUsers', {}, { cookie: team.admin.cookie })).status).toBe(402);

      await webhook(env, {
        type: 'customer.subscription.updated',
        data: { object: subscription('active', 7) },
      });
      expect(await orgState(env, team.org.id)).toMatchObject({
        subscription_status: 'active',
        num_departments: 7,
      });

      await webhook(env, {
        type: 'customer.subscription.deleted',
        data: { object: subscription('canceled') },
      });
      expect((await orgState(env, team.org.id)).subscription_status).toBe('canceled');
      expect(await call(env, 'getUsers', {}, { cookie: team.admin.cookie })).toMatchObject({
        status: 402,
        body: { errMsg: 'Your account is unpaid.' },
      });
    });

    it('refuses a webhook with a wrong, missing or stale signature, changing nothing', async () => {
      const team = await buildTeam(env, { paid: false });
      await call(env, 'selectSubscription', { numDepartments: 2 }, { cookie: team.owner.cookie });
      const sessionId = [...stripe.sessions.keys()].at(-1)!;
      const event = { type: 'checkout.session.completed', data: { object: { id: sessionId } } };
      const payload = JSON.stringify(event);
      for (const signature of [
        signWebhookPayload(payload, 'whsec_someone_else', env.clock.now()),
        'garbage',
        signWebhookPayload(payload, WEBHOOK_SECRET, env.clock.now() - 10 * 60_000),
      ]) {
        const answer = await webhook(env, event, signature);
        expect(answer.statusCode).toBe(400);
      }
      const tampered = await env.app.inject({
        method: 'POST',
        url: STRIPE_WEBHOOK_PATH,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signWebhookPayload(payload, WEBHOOK_SECRET, env.clock.now()),
        },
        payload: payload.replace('checkout.session.completed', 'checkout.session.completed '),
      });
      expect(tampered.statusCode).toBe(400);
      expect((await orgState(env, team.org.id)).subscription_status).toBe('none');
    });

    it('says so when Stripe does not answer, writing no checkout', async () => {
      const team = await buildTeam(env, { paid: false });
      stripe.failing = true;
      try {
        const answer = await call(
          env,
          'selectSubscription',
          { numDepartments: 2 },
          { cookie: team.owner.cookie },
        );
        expect(answer).toMatchObject({
          status: 500,
          body: { errMsg: 'The payment service did not answer. Please try again later.' },
        });
      } finally {
        stripe.failing = false;
      }
      expect(
        await env.db.selectFrom('checkouts').select('id').where('org_id', '=', team.org.id).execute(),
      ).toEqual([]);
    });
  },
  {
    config: () => ({
      billing: {
        provider: 'stripe',
        secretKey: 'sk_test_checkboard',
        webhookSecret: WEBHOOK_SECRET,
        priceId: 'price_departments',
        apiUrl: stripe.url,
      },
    }),
  },
);
