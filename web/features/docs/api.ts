/**
 * The API reference's one read: the OpenAPI document the server generates from the contract
 * (GET /api/openapi.json). It changes only with a new version of the app, so it is read once per visit.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../common/api/index.ts';
import { callApi } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';
import type { JsonSchema } from './schema.ts';

export const OPENAPI_URL = '/api/openapi.json';

export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  'x-access': string;
  parameters?: {
    name: string;
    in: 'query' | 'header';
    required: boolean;
    description?: string;
    schema: JsonSchema;
  }[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
}

export interface Entry {
  method: string;
  path: string;
  operation: Operation;
}

export const docsKeys = { openapi: ['docs', 'openapi'] as const };

export const openApiQuery = () =>
  queryOptions({
    queryKey: docsKeys.openapi,
    queryFn: async ({ signal }) => {
      const answer = await fetch(OPENAPI_URL, { signal, headers: { Accept: 'application/json' } });
      if (!answer.ok) throw new Error('Unable to get result from server. Please try again later.');
      return (await answer.json()) as OpenApiDocument;
    },
    staleTime: Infinity,
  });

export const useOpenApi = () => useQuery(openApiQuery());

/** The calls of each area, in the document's order of areas and of calls. */
export function entriesByArea(document: OpenApiDocument): [string, Entry[]][] {
  const areas = new Map<string, Entry[]>(document.tags.map((t) => [t.name, []]));
  for (const [path, byMethod] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(byMethod)) {
      const area = operation.tags[0] ?? 'Other';
      if (!areas.has(area)) areas.set(area, []);
      areas.get(area)!.push({ method: method.toUpperCase(), path, operation });
    }
  return [...areas].filter(([, entries]) => entries.length > 0);
}

/** Whether a call matches what the reader typed: its path, name or who may make it. */
export function matches(entry: Entry, filter: string): boolean {
  const words = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${entry.path} ${entry.operation.operationId} ${entry.operation.description}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

export const apiTokenKeys = { all: ['api-tokens'] as const };

export const apiTokensQuery = () =>
  queryOptions({
    queryKey: apiTokenKeys.all,
    queryFn: () => callApi(api.getApiTokens, {}),
  });
export const useApiTokens = (enabled: boolean) => useQuery({ ...apiTokensQuery(), enabled });
export const useAddApiToken = () => useCallMutation(api.addApiToken, { invalidates: [apiTokenKeys.all] });
export const useRevokeApiToken = () =>
  useCallMutation(api.revokeApiToken, { invalidates: [apiTokenKeys.all] });

export const webhookKeys = {
  all: ['webhooks'] as const,
  deliveries: (webhookID: number) => ['webhooks', 'deliveries', webhookID] as const,
};

export const webhooksQuery = () =>
  queryOptions({ queryKey: webhookKeys.all, queryFn: () => callApi(api.getWebhooks, {}) });
export const useWebhooks = () => useQuery(webhooksQuery());
export const deliveriesQuery = (webhookID: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(webhookID),
    queryFn: () => callApi(api.getWebhookDeliveries, { webhookID }),
  });
export const useDeliveries = (webhookID: number | null) =>
  useQuery({ ...deliveriesQuery(webhookID ?? 0), enabled: webhookID !== null, refetchInterval: 5_000 });
export const useAddWebhook = () => useCallMutation(api.addWebhook, { invalidates: [webhookKeys.all] });
export const useEditWebhook = () => useCallMutation(api.editWebhook, { invalidates: [webhookKeys.all] });
export const useDeleteWebhook = () => useCallMutation(api.deleteWebhook, { invalidates: [webhookKeys.all] });
export const useResendDelivery = () =>
  useCallMutation(api.resendWebhookDelivery, { invalidates: [webhookKeys.all] });
