import { Accordion, Anchor, Badge, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDeferredValue, useMemo, useState } from 'react';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { roleOf, show } from '../../../common/roles.ts';
import { useUserData } from '../../lib/queries.ts';
import { ApiTokens } from './ApiTokens.tsx';
import { Webhooks } from './Webhooks.tsx';
import { entriesByArea, matches, OPENAPI_URL, useOpenApi, type Entry } from './api.ts';
import { fieldsOf, type JsonSchema } from './schema.ts';

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

const METHOD_COLOURS: Record<string, string> = { GET: 'teal.9', POST: 'blue.8', DELETE: 'red.9' };

function Fields({ schema, caption }: { schema: JsonSchema; caption: string }) {
  const rows = fieldsOf(schema);
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {caption}: no fields.
      </Text>
    );
  return (
    <Table striped withTableBorder verticalSpacing={4} fz="sm">
      <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Field</Table.Th>
          <Table.Th scope="col">Type</Table.Th>
          <Table.Th scope="col">Required</Table.Th>
          <Table.Th scope="col">Rules</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.name}>
            <Table.Td>
              <Code style={{ overflowWrap: 'anywhere' }}>{row.name}</Code>
            </Table.Td>
            <Table.Td>{row.type}</Table.Td>
            <Table.Td>{row.required ? 'Yes' : 'No'}</Table.Td>
            <Table.Td>{row.rules}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Call({ entry }: { entry: Entry }) {
  const { operation } = entry;
  const query = operation.parameters?.filter((p) => p.in === 'query') ?? [];
  const headers = operation.parameters?.filter((p) => p.in === 'header') ?? [];
  const success = operation.responses['200'];
  const answerSchema = success?.content?.['application/json']?.schema;
  const errors = Object.entries(operation.responses).filter(([status]) => status !== '200');
  return (
    <Stack gap="sm">
      <Text size="sm">{operation.description}</Text>
      {operation.requestBody && (
        <Fields
          schema={operation.requestBody.content['application/json'].schema}
          caption="Request body (JSON)"
        />
      )}
      {query.length > 0 && (
        <Fields
          caption="Query"
          schema={{
            type: 'object',
            properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
            required: query.filter((p) => p.required).map((p) => p.name),
          }}
        />
      )}
      {headers.map((h) => (
        <Text size="sm" key={h.name}>
          Header <Code>{h.name}</Code> (optional): {h.description}
        </Text>
      ))}
      {answerSchema ? (
        <Fields schema={answerSchema} caption="Answer (JSON)" />
      ) : (
        <Text size="sm">Answer: {success?.description}</Text>
      )}
      <div>
        <Text size="sm" fw={600}>
          Errors (JSON {'{errMsg, errField?}'})
        </Text>
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {errors.map(([status, response]) => (
            <li key={status}>
              <Text size="sm" span fw={600}>
                {status}
              </Text>{' '}
              <Text size="sm" span>
                {response.description}
              </Text>
            </li>
          ))}
        </ul>
      </div>
    </Stack>
  );
}

/** /q/{org}/docs: the API reference, read from the OpenAPI document the server generates (decision 0583). */
export function DocsPage() {
  const openApi = useOpenApi();
  const { data: user } = useUserData();
  const [filter, setFilter] = useState('');
  const deferred = useDeferredValue(filter);
  const areas = useMemo(
    () =>
      openApi.data
        ? entriesByArea(openApi.data)
            .map(([area, entries]) => [area, entries.filter((e) => matches(e, deferred))] as const)
            .filter(([, entries]) => entries.length > 0)
        : [],
    [openApi.data, deferred],
  );
  const shown = areas.reduce((sum, [, entries]) => sum + entries.length, 0);

  return (
    <Page title="Documentation">
      <Text>
        The Checkboard API: every call the app makes, who may make it, what it takes and what it answers. It
        is generated from the same contract the server checks requests with, and available as{' '}
        <Anchor href={OPENAPI_URL} underline="always">
          OpenAPI 3.1 (JSON)
        </Anchor>{' '}
        for your own tools.
      </Text>
      {user && show.apiTokens(roleOf(user)) && (
        <>
          <ApiTokens />
          <Webhooks />
        </>
      )}
      {openApi.isPending && <Loading label="Loading the API reference" />}
      {openApi.isError && <ErrorText message={openApi.error.message} />}
      {openApi.data && (
        <>
          <Text size="sm" c="dimmed">
            {openApi.data.info.description}
          </Text>
          <TextInput
            label="Find a call"
            placeholder="e.g. board, evaluation, Administrators"
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
            maw={420}
          />
          <Text size="sm" role="status" aria-live="polite">
            {shown === 1 ? '1 call' : `${shown} calls`}
          </Text>
          {areas.map(([area, entries]) => (
            <section key={area} aria-labelledby={`area-${slug(area)}`}>
              <Title order={2} size="h3" id={`area-${slug(area)}`} mb="xs">
                {area}
              </Title>
              <Accordion variant="separated" multiple>
                {entries.map((entry) => (
                  <Accordion.Item key={`${entry.method} ${entry.path}`} value={entry.path}>
                    <Accordion.Control>
                      <Group gap="sm" wrap="nowrap">
                        <Badge color={METHOD_COLOURS[entry.method] ?? 'gray'} variant="filled" w={72}>
                          {entry.method}
                        </Badge>
                        <Code style={{ overflowWrap: 'anywhere' }}>{entry.path}</Code>
                      </Group>
                    </Accordion.Control>
                    <Accordion.Panel>
                      <Call entry={entry} />
                    </Accordion.Panel>
                  </Accordion.Item>
                ))}
              </Accordion>
            </section>
          ))}
        </>
      )}
    </Page>
  );
}
