/**
 * GET /metrics (decision 0603): absent without METRICS_TOKEN, refused without its Bearer token, and in
 * Prometheus's text format with requests counted and timed per contract call (never per raw URL) and the
 * database pool's use.
 */
import { expect, it } from 'vitest';
import { buildBoard, buildCard, buildTeam } from '../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../test/harness.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

async function scrape(env: TestEnv, authorization?: string) {
  const response = await env.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: authorization ? { authorization } : {},
  });
  return { status: response.statusCode, headers: response.headers, text: response.body };
}

/** The value of one sample line, e.g. `name{labels} 3`. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describeEachDatabase('metrics without METRICS_TOKEN', (env) => {
  it('has no /metrics at all', async () => {
    expect((await scrape(env, `Bearer ${TOKEN}`)).status).toBe(404);
    expect((await scrape(env)).status).toBe(404);
  });
});

describeEachDatabase(
  'metrics',
  (env) => {
    it('refuses a scrape without the token, or with another', async () => {
      for (const authorization of [
        undefined,
        'Bearer wrong-token-0123456789abcdef',
        TOKEN,
        `Basic ${TOKEN}`,
      ]) {
        const answer = await scrape(env, authorization);
        expect(answer.status).toBe(401);
        expect(answer.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(answer.text).not.toContain('checkboard_');
      }
    });

    it('counts and times requests per call, never per URL, and shows the pool', async () => {
      const team = await buildTeam(env);
      const card = await buildCard(env, team.org);
      const board = await buildBoard(env, team.org, { hasAnonymous: true, cardIds: [card.id] });
      for (let i = 0; i < 3; i++)
        expect((await call(env, 'getBoards', {}, { cookie: team.admin.cookie })).status).toBe(200);
      expect((await call(env, 'getBoards', {})).status).toBe(401);
      const key = (
        await call(env, 'getAnonymousEvaluationKey', { boardID: board.id }, { cookie: team.viewer.cookie })
      ).body.key as string;
      const anon = { orgName: team.org.name, boardID: board.id, anonKey: key };
      expect((await call(env, 'getBoardAnon', anon)).status).toBe(200);
      await env.app.inject({ method: 'GET', url: `/api/no-such-call/${board.id}?secret=planted-secret-1` });

      const answer = await scrape(env, `Bearer ${TOKEN}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(answer.headers['cache-control']).toBe('no-store');
      const { text } = answer;
      const count = (labels: string) => sample(text, `checkboard_http_requests_total{${labels}}`);
      expect(count('call="getBoards",method="POST",status="200"')).toBe(3);
      expect(count('call="getBoards",method="POST",status="401"')).toBe(1);
      expect(count('call="getBoardAnon",method="POST",status="200"')).toBe(1);
      expect(count('call="api_not_found",method="GET",status="404"')).toBe(1);
      const timed = 'checkboard_http_request_duration_seconds';
      expect(sample(text, `${timed}_count{call="getBoards",method="POST"}`)).toBe(4);
      expect(sample(text, `${timed}_bucket{le="+Inf",call="getBoards",method="POST"}`)).toBe(4);
      expect(sample(text, `${timed}_sum{call="getBoards",method="POST"}`)).toBeGreaterThan(0);
      // Nothing of a request's URL becomes a label: no paths, ids, keys or query strings.
      expect(text).not.toContain('/api/');
      expect(text).not.toContain(key);
      expect(text).not.toContain('planted-secret-1');
      expect(text).not.toContain(team.org.name);

      const max = sample(text, 'checkboard_db_pool_max_connections');
      const total = sample(text, 'checkboard_db_pool_connections{state="total"}');
      expect(max).toBe(env.dialect === 'sqlite' ? 1 : 5);
      expect(total).toBeGreaterThanOrEqual(1);
      expect(total).toBeLessThanOrEqual(max!);
      expect(sample(text, 'checkboard_db_pool_connections{state="waiting"}')).toBe(0);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    });
  },
  { config: () => ({ metricsToken: TOKEN }) },
);
