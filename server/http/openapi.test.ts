import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, expect, it } from 'vitest';
import { api, type CallDef, type CallName } from '../../common/api/index.ts';
import { buildFixture, samples, type Fixture } from '../hardening/contractSamples.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { OPENAPI_PATH } from './openapi.ts';

type Operation = {
  operationId: string;
  description: string;
  tags: string[];
  'x-access': string;
  'x-fail-message': string;
  requestBody?: { content: { 'application/json'?: { schema: object } } };
  parameters?: { name: string; in: string; schema: object }[];
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};
type Document = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
};

const calls = Object.entries(api) as [CallName, CallDef][];
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

describeEachDatabase('GET /api/openapi.json', (env) => {
  let document: Document;
  let fixture: Fixture;
  beforeAll(async () => {
    const answer = await env.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    document = answer.json();
    fixture = await buildFixture(env);
  });

  const operationOf = (def: CallDef) => document.paths[def.path]?.[def.method.toLowerCase()];
  const requestSchemaOf = (def: CallDef) => {
    const op = operationOf(def)!;
    if (op.requestBody?.content['application/json']) return op.requestBody.content['application/json'].schema;
    // GET, and a photo upload (its body is the image): the query's fields, as one object.
    const query = (op.parameters ?? []).filter((p) => p.in === 'query');
    return {
      type: 'object',
      properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
    };
  };

  it('is OpenAPI 3.1 and describes every call of the contract once, with who may make it', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
    const operations = Object.values(document.paths).flatMap((byMethod) => Object.values(byMethod));
    expect(operations).toHaveLength(calls.length);
    for (const [name, def] of calls) {
      const op = operationOf(def);
      expect(op, name).toBeDefined();
      expect(op!.operationId).toBe(name);
      expect(op!['x-access']).toBe(def.access);
      expect(op!['x-fail-message']).toBe(def.failMsg);
      expect(op!.tags).toHaveLength(1);
    }
  });

  it('says the rules zod checks in code (names, emails) in words', () => {
    const body = operationOf(api.addBoard)!.requestBody!.content['application/json']!.schema as {
      properties: { name: { description?: string } };
    };
    expect(body.properties.name.description).toMatch(/^trimmed; 1-100 characters; none of ! \* '/);
  });

  it('names the refusals the pipeline gives each kind of call', () => {
    const statuses = (def: CallDef) => Object.keys(operationOf(def)!.responses);
    expect(statuses(api.addBoard)).toEqual(
      expect.arrayContaining(['200', '400', '401', '402', '403', '404', '409', '422', '503']),
    );
    expect(statuses(api.login)).not.toContain('401');
    expect(statuses(api.login)).not.toContain('402');
    expect(statuses(api.getCardAnon)).toEqual(expect.arrayContaining(['404', '429']));
    expect(statuses(api.getCardAnon)).not.toContain('401');
    // PDF reports are limited (decision 0715).
    expect(statuses(api.getEvaluationReport)).toEqual(expect.arrayContaining(['401', '404', '429']));
    expect(statuses(api.getSharedReport)).toContain('429');
    expect(operationOf(api.addBoard)!.description).toContain('API tokens: read-write tokens only.');
    expect(operationOf(api.getBoards)!.description).toContain('read-only and read-write tokens');
    expect(operationOf(api.addUser)!.description).toContain('API tokens cannot make it');
    const mutating = operationOf(api.addBoard)!.parameters ?? [];
    expect(mutating.map((p) => p.name)).toContain('Idempotency-Key');
    expect((operationOf(api.getBoards)!.parameters ?? []).map((p) => p.name)).not.toContain(
      'Idempotency-Key',
    );
  });

  it('accepts every valid request the server accepts, and refuses what it refuses', () => {
    for (const [name, def] of calls) {
      const validate = ajv.compile(requestSchemaOf(def));
      const sample = samples[name](fixture) as Record<string, unknown>;
      expect(def.request.safeParse(sample).success, name).toBe(true);
      expect(validate(sample), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      if (def.method !== 'GET' && !def.upload) {
        // Every request object is strict: a field the contract does not know is refused by both.
        const extra = { ...sample, notAField: 1 };
        expect(def.request.safeParse(extra).success, name).toBe(false);
        expect(validate(extra), name).toBe(false);
      }
    }
  });

  it('describes answers the server gives: a real answer validates against its schema', async () => {
    const op = operationOf(api.getBoards)!;
    const validate = ajv.compile(op.responses['200']!.content!['application/json']!.schema);
    const answer = await env.app.inject({
      method: 'POST',
      url: api.getBoards.path,
      headers: { cookie: fixture.owner.cookie, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.boards.length).toBeGreaterThan(0);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ boards: [{ id: 'one' }] })).toBe(false);
  });
});
