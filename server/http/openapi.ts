/**
 * GET /api/openapi.json: the API described as OpenAPI 3.1, generated from the contract in common/ (the
 * same zod schemas the server validates with and the web client types with), so it cannot drift from
 * what the server does. Built once per process; the reference page /q/{org}/docs reads it.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiAreas, type CallDef } from '../../common/api/index.ts';
import { ACCESS_LABELS } from '../../common/roles.ts';
import { API_TOKEN_CALLS_PER_MINUTE } from '../auth/apiTokens.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';

export const OPENAPI_PATH = '/api/openapi.json';

type Json = Record<string, unknown>;

const errorBody = {
  type: 'object',
  properties: {
    errMsg: { type: 'string', description: 'A message to show to the user.' },
    errField: { type: 'string', description: 'The request field the message is about, if any.' },
  },
  required: ['errMsg'],
} as const;

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

/** The statuses a call can answer besides success, from what the pipeline does before and around it. */
function errorResponses(call: CallDef): Json {
  const responses: Json = {
    '400': error('The request is not valid: errMsg says why, errField names the field.'),
  };
  if (call.access === 'anonymous') {
    responses['404'] = error('The board, the key or the evaluation is not found (or the key has expired).');
    responses['429'] = error('Too many requests from this address.');
  } else if (call.access !== 'public') {
    responses['401'] = error('No session, or the session has ended.');
    if (!call.whenUnpaid) responses['402'] = error("The organisation's subscription is unpaid.");
    responses['403'] = error('The role is below what the call needs.');
    responses['404'] = error("Not found, or another organisation's: the two are answered alike.");
  }
  if (call.perAddressLimit) responses['429'] = error('Too many requests from this address.');
  if (call.document)
    // Reports are limited per member, organisation and address (decision 0715).
    responses['429'] = error(
      'Too many reports made this minute (for the member, the organisation or the address); Retry-After says when to try again.',
    );
  if (call.mutates) {
    responses['403'] ??= error('A state-changing request from another site.');
    responses['409'] = error('The change conflicts with the current state (a name in use, a limit).');
    responses['422'] = error('The Idempotency-Key was used before with a different body.');
  }
  responses['413'] = error('The body is too large.');
  responses['415'] = error('The body is not JSON.');
  responses['503'] = error('The database cannot be reached: retry later.');
  responses['500'] = error('An unexpected fault; errMsg is the call’s own message.');
  return responses;
}

function accessText(call: CallDef): string {
  const who = ACCESS_LABELS[call.access];
  const notes = [`Who may call: ${who}.`];
  if (call.access !== 'public' && call.access !== 'anonymous')
    notes.push(
      call.whenUnpaid
        ? 'Allowed while the subscription is unpaid.'
        : 'Refused (402) while the subscription is unpaid.',
    );
  if (call.mutates)
    notes.push(
      call.idempotent === false
        ? 'Not replayed by Idempotency-Key.'
        : 'A retry with the same Idempotency-Key is answered from the first attempt and applies once.',
    );
  if (call.access !== 'public' && call.access !== 'anonymous')
    notes.push(
      call.bearer === false || call.access === 'owner'
        ? 'Needs a person signed in: API tokens cannot make it.'
        : call.mutates
          ? 'API tokens: read-write tokens only.'
          : 'API tokens: read-only and read-write tokens.',
    );
  notes.push(`Failure message: '${call.failMsg}'`);
  return notes.join(' ');
}

function operation(name: string, area: string, call: CallDef): Json {
  const input = jsonSchema(call.request, 'input');
  const op: Json = {
    operationId: name,
    tags: [area],
    summary: call.path.replace('/api/', ''),
    description: accessText(call),
    'x-access': call.access,
    'x-fail-message': call.failMsg,
    security: call.access === 'public' || call.access === 'anonymous' ? [] : [{ session: [] as string[] }],
    responses: {
      '200': call.image
        ? {
            description: 'The photo, shown inline (nosniff, a sandboxing Content-Security-Policy).',
            content: Object.fromEntries(
              ['image/jpeg', 'image/png', 'image/webp'].map((type) => [
                type,
                { schema: { type: 'string', contentMediaType: type } },
              ]),
            ),
          }
        : call.document
          ? {
              description: "The evaluation's PDF report, as a download (Content-Disposition names it).",
              content: {
                'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
              },
            }
          : call.file
            ? {
                description: 'A file download (Content-Disposition names it).',
                content: {
                  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                    schema: { type: 'string', contentMediaType: 'application/octet-stream' },
                  },
                },
              }
            : {
                description: 'Success.',
                content: { 'application/json': { schema: jsonSchema(call.response, 'output') } },
              },
      ...errorResponses(call),
    },
  };
  const parameters: Json[] = [];
  if (call.method === 'GET' || call.upload) {
    const properties = (input.properties ?? {}) as Record<string, Json>;
    const required = new Set((input.required ?? []) as string[]);
    for (const [field, schema] of Object.entries(properties))
      parameters.push({ name: field, in: 'query', required: required.has(field), schema });
    // A photo upload's body is the image itself (docs/decisions/0643), at most 10 MB.
    if (call.upload === 'signature')
      op.requestBody = {
        required: true,
        description: 'The signature: a PNG image, checked by its content, at most 512 KB.',
        content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
      };
    else if (call.upload)
      op.requestBody = {
        required: true,
        description: 'The photo: JPEG, PNG, WebP or HEIC, checked by its content, at most 10 MB.',
        content: { 'image/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
      };
  } else {
    op.requestBody = { required: true, content: { 'application/json': { schema: input } } };
  }
  if (call.mutates)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Up to 200 characters; a retry carrying the same key applies once.',
      schema: { type: 'string', maxLength: 200 },
    });
  if (parameters.length) op.parameters = parameters;
  return op;
}

export function buildOpenApi(version: string, serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const [area, calls] of Object.entries(apiAreas))
    for (const [name, call] of Object.entries(calls) as [string, CallDef][])
      paths[call.path] = { ...paths[call.path], [call.method.toLowerCase()]: operation(name, area, call) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Checkboard API',
      version,
      description:
        'Every call the Checkboard app makes. Bodies are JSON (UTF-8); date-times are ISO 8601 in UTC. ' +
        'Members are identified by the session cookie set at sign-in, other systems by an API token ' +
        '(Authorization: Bearer); calls ending in -anon take the ' +
        "board's anonymous key in the body instead. State-changing calls accept an Idempotency-Key header " +
        'and are refused when sent from another site. Errors answer {errMsg, errField?}.',
    },
    servers: [{ url: serverUrl }],
    tags: Object.keys(apiAreas).map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: errorBody },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by /api/login.' },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API token made by an administrator (/api/add-api-token): read-only or read-write, never ' +
            `beyond its maker's role, at most ${API_TOKEN_CALLS_PER_MINUTE} calls a minute.`,
        },
      },
    },
  };
}

export function registerOpenApi(app: FastifyInstance, version: string, serverUrl: string) {
  let document: string | null = null;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    document ??= JSON.stringify(buildOpenApi(version, serverUrl));
    return reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send(document);
  });
}
