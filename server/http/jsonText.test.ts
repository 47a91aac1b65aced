/**
 * Answers already written as JSON (decision 0775): sent as they are, and, outside production, checked against
 * the call's response schema exactly, so a field the contract does not name is an error rather than a leak.
 */
import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import { expect, it } from 'vitest';
import { api } from '../../common/api/index.ts';
import { JsonText } from '../lib/jsonText.ts';
import { buildTeam } from '../test/factories.ts';
import { describeEachDatabase, type TestEnv } from '../test/harness.ts';
import { registerErrorHandler } from './errors.ts';
import { registerCalls } from './register.ts';

async function appAnswering(env: TestEnv, text: string, environment: 'test' | 'production') {
  const app = Fastify();
  await app.register(cookie);
  registerErrorHandler(app);
  registerCalls(
    app,
    { ...env.services, config: { ...env.config, env: environment } },
    {
      getBoards: async () => new JsonText(text),
    },
  );
  await app.ready();
  return app;
}

describeEachDatabase('answers written as JSON', (env) => {
  async function getBoards(text: string, environment: 'test' | 'production') {
    const team = await buildTeam(env);
    const app = await appAnswering(env, text, environment);
    try {
      return await app.inject({
        method: 'POST',
        url: api.getBoards.path,
        headers: { cookie: team.viewer.cookie, 'sec-fetch-site': 'same-origin' },
        payload: {},
      });
    } finally {
      await app.close();
    }
  }

  it('sends the text as it is, as JSON', async () => {
    const text = '{"boards":[{"id":3,"name":"Line 1","cardIDs":[4,5],"hasAnonymous":false}]}';
    const answer = await getBoards(text, 'test');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toBe(text);
  });

  it('refuses, outside production, an answer with a field the contract does not name', async () => {
    const answer = await getBoards(
      '{"boards":[{"id":3,"name":"Line 1","cardIDs":[],"hasAnonymous":false,"secret":"x"}]}',
      'test',
    );
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ errMsg: api.getBoards.failMsg });
    expect(answer.body).not.toContain('secret');
  });

  it('refuses, outside production, an answer the contract does not allow', async () => {
    const answer = await getBoards('{"boards":[{"id":"3","name":"Line 1"}]}', 'test');
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ errMsg: api.getBoards.failMsg });
  });

  it('does not parse the text again in production', async () => {
    const text = '{"boards":[],"checked":false}';
    const answer = await getBoards(text, 'production');
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(text);
  });
});
