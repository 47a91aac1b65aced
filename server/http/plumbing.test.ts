import { expect, it } from 'vitest';
import { api } from '../../common/api/index.ts';
import { BODY_LIMIT_BYTES } from '../app.ts';
import { buildTeam } from '../test/factories.ts';
import { call, describeEachDatabase } from '../test/harness.ts';

describeEachDatabase('HTTP plumbing', (env) => {
  it('puts the security headers on every answer and no-store on API answers', async () => {
    const team = await buildTeam(env);
    const answer = await call(env, 'getUserData', {}, { cookie: team.viewer.cookie });
    expect(answer.status).toBe(200);
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    expect(answer.headers['x-request-id']).toBeTruthy();
  });

  it('sends HSTS when served over https behind a trusted proxy', async () => {
    const answer = await env.app.inject({
      method: 'GET',
      url: '/version.txt',
      headers: { 'x-forwarded-proto': 'https' },
    });
    // TRUST_PROXY is off in tests, so the forwarded protocol is not believed.
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });

  it('never lets an anonymous page pass its key on in a Referer', async () => {
    const answer = await env.app.inject({ method: 'GET', url: '/q/Acme%20Ltd/boards/Line%201/4/eval/abc' });
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
  });

  it('refuses a body that is not JSON with 415', async () => {
    const answer = await env.app.inject({
      method: 'POST',
      url: api.getUserData.path,
      headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'same-origin' },
      payload: 'hello',
    });
    expect(answer.statusCode).toBe(415);
    expect(answer.json()).toEqual({
      errMsg: 'Requests must be sent as JSON (Content-Type: application/json).',
    });
  });

  it('refuses a form post with 415 even without a session', async () => {
    const answer = await env.app.inject({
      method: 'POST',
      url: api.logout.path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload: 'a=1',
    });
    expect(answer.statusCode).toBe(415);
  });

  it('refuses a cross-site state-changing request with 403 (Sec-Fetch-Site and Origin)', async () => {
    const team = await buildTeam(env);
    const bySite = await call(
      env,
      'logout',
      {},
      { cookie: team.viewer.cookie, headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expect(bySite.status).toBe(403);
    expect(bySite.body).toEqual({ errMsg: 'Cross-site requests are not allowed.' });
    const byOrigin = await env.app.inject({
      method: 'POST',
      url: api.logout.path,
      headers: {
        'content-type': 'application/json',
        origin: 'https://evil.example',
        cookie: team.viewer.cookie,
      },
      payload: {},
    });
    expect(byOrigin.statusCode).toBe(403);
    // The session survived: the refused sign-out did nothing.
    expect((await call(env, 'getUserData', {}, { cookie: team.viewer.cookie })).status).toBe(200);
  });

  it('accepts a same-origin request identified only by its Origin', async () => {
    const team = await buildTeam(env);
    const answer = await env.app.inject({
      method: 'POST',
      url: api.getUserData.path,
      headers: {
        'content-type': 'application/json',
        origin: 'http://checkboard.test',
        cookie: team.viewer.cookie,
      },
      payload: {},
    });
    expect(answer.statusCode).toBe(200);
  });

  it('refuses a body over the limit with 413', async () => {
    const answer = await env.app.inject({
      method: 'POST',
      url: api.getUserData.path,
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      payload: JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT_BYTES) }),
    });
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toEqual({ errMsg: 'The request is too large.' });
  });

  it('answers malformed JSON with 400 and a plain message, not a parser trace', async () => {
    const answer = await env.app.inject({
      method: 'POST',
      url: api.getUserData.path,
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      payload: '{"a":',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ errMsg: 'The request body is not valid JSON.' });
  });

  it('refuses unknown request fields with 400 instead of storing them', async () => {
    const team = await buildTeam(env);
    const answer = await call(env, 'getUserData', { isAdmin: true }, { cookie: team.viewer.cookie });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ errMsg: 'Unknown field: isAdmin.' });
  });

  it('answers an unknown API path with 404 JSON', async () => {
    const answer = await env.app.inject({
      method: 'POST',
      url: '/api/no-such-call',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      payload: {},
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ errMsg: 'Not found.' });
  });

  it('answers a member call without a session with 401', async () => {
    const answer = await call(env, 'getUserData', {});
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ errMsg: 'Please sign in to continue.' });
  });

  it('serves /version.txt uncached', async () => {
    const answer = await env.app.inject({ method: 'GET', url: '/version.txt' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body.length).toBeGreaterThan(0);
  });
});
