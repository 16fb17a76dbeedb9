import { useEffect, useMemo, useState } from 'react';
import { Accordion, Anchor, Badge, Box, Center, Code, Container, Group, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { messageForError } from '../../domain/messages';
import { api } from '../../shared/api';
import { SchemaView, typeLabel, type JsonSchema } from './schema-view';
import { LoadFailedPanel } from '../../shared/load-failed';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}
interface Operation {
  summary: string;
  description?: string;
  tags: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}
interface OpenApiDocument {
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
}

const METHOD_COLOURS: Record<string, string> = { get: 'blue', post: 'teal', put: 'orange', patch: 'grape', delete: 'red' };

type Load = { state: 'loading' } | { state: 'ready'; doc: OpenApiDocument } | { state: 'failed'; message: string };

/**
 * The product's own API documentation (issue 13, linked from the Integration settings): the
 * gateway's OpenAPI 3.1 document from /api/openapi.json, grouped by area, each call with its
 * method, path, parameters and zod-derived request and response schemas.
 */
export function ApiDocsPage() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    let live = true;
    api.get<OpenApiDocument>('/openapi.json', { unsigned: true }).then(
      (doc) => live && setLoad({ state: 'ready', doc }),
      (err) => live && setLoad({ state: 'failed', message: messageForError(err) }),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  const groups = useMemo(() => {
    if (load.state !== 'ready') return [];
    const needle = filter.trim().toLowerCase();
    const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
    for (const [path, ops] of Object.entries(load.doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (needle && !`${method} ${path} ${op.summary}`.toLowerCase().includes(needle)) continue;
        const tag = op.tags[0] ?? 'Other';
        byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
      }
    return [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [load, filter]);

  if (load.state === 'loading')
    return (
      <Center h="50vh">
        <Loader aria-label="Loading the API documentation" />
      </Center>
    );
  if (load.state === 'failed')
    return (
      <Container size="md" py="xl">
        <LoadFailedPanel title="The API documentation could not be loaded" message={load.message} onRetry={() => (setLoad({ state: 'loading' }), setAttempt((n) => n + 1))} />
      </Container>
    );

  const { doc } = load;
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Box>
          <Title order={1}>{doc.info.title} API</Title>
          <Text c="dimmed" mt={4}>
            OpenAPI {`3.1`} · version {doc.info.version} · base URL <Code>{new URL(doc.servers[0]?.url ?? '/api', window.location.origin).href}</Code> ·{' '}
            <Anchor href="/api/openapi.json" target="_blank" rel="noreferrer">
              openapi.json
            </Anchor>
          </Text>
        </Box>
        <Paper withBorder radius="lg" p="lg">
          <Title order={2} size="h4" mb="xs">
            Authentication
          </Title>
          <Text size="sm">{doc.info.description}</Text>
        </Paper>
        <TextInput label="Filter calls" placeholder="e.g. members, PATCH, integrations" leftSection={<IconSearch size={16} />} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} maw={420} />
        {groups.length === 0 && <Text c="dimmed">No call matches “{filter}”.</Text>}
        {groups.map(([tag, ops]) => (
          <Box key={tag} component="section" aria-labelledby={`tag-${tag}`}>
            <Title order={2} size="h3" mb="sm" id={`tag-${tag}`}>
              {tag}
            </Title>
            <Accordion variant="separated" radius="md" multiple>
              {ops.map(({ method, path, op }) => (
                <OperationItem key={`${method} ${path}`} method={method} path={path} op={op} />
              ))}
            </Accordion>
          </Box>
        ))}
        {doc.webhooks && !filter && (
          <Box component="section" aria-labelledby="tag-webhooks" id="webhooks">
            <Title order={2} size="h3" mb="sm" id="tag-webhooks">
              Webhook events
            </Title>
            <Text size="sm" mb="sm" c="dimmed">
              What Tidewatch POSTs to the URL set in the organisation's Webhooks settings.
            </Text>
            <Accordion variant="separated" radius="md" multiple defaultValue={['post-your-webhook-url']}>
              {Object.values(doc.webhooks).flatMap((ops) => Object.entries(ops).map(([method, op]) => <OperationItem key={method} method={method} path="your-webhook-url" op={op} />))}
            </Accordion>
          </Box>
        )}
      </Stack>
    </Container>
  );
}

function OperationItem({ method, path, op }: { method: string; path: string; op: Operation }) {
  const params = op.parameters ?? [];
  const body = op.requestBody && Object.values(op.requestBody.content)[0]?.schema;
  const success = Object.entries(op.responses).filter(([code]) => code !== 'default');
  return (
    <Accordion.Item value={`${method}-${path}`}>
      <Accordion.Control>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Badge color={METHOD_COLOURS[method] ?? 'gray'} variant="filled" w={70} radius="sm" style={{ flexShrink: 0 }}>
            {method}
          </Badge>
          <Box style={{ minWidth: 0 }}>
            <Text ff="monospace" size="sm" fw={600} style={{ wordBreak: 'break-all' }}>
              {path}
            </Text>
            <Text size="sm" c="dimmed">
              {op.summary}
              {op.security?.length === 0 ? ' · no token needed' : ''}
            </Text>
          </Box>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          {op.description && <Text size="sm">{op.description}</Text>}
          {params.length > 0 && (
            <Box>
              <Text fw={600} size="sm" mb={4}>
                Parameters
              </Text>
              <Table.ScrollContainer minWidth={420} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': `${method.toUpperCase()} ${path} parameters` } }}>
                <Table withTableBorder verticalSpacing={4} fz="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Name</Table.Th>
                      <Table.Th>In</Table.Th>
                      <Table.Th>Type</Table.Th>
                      <Table.Th>Required</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {params.map((p) => (
                      <Table.Tr key={`${p.in} ${p.name}`}>
                        <Table.Td>
                          <Code>{p.name}</Code>
                          {p.description && (
                            <Text size="xs" c="dimmed">
                              {p.description}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{p.in}</Table.Td>
                        <Table.Td ff="monospace">{typeLabel(p.schema)}</Table.Td>
                        <Table.Td>{p.required ? 'yes' : 'no'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Box>
          )}
          {body && (
            <Box>
              <Text fw={600} size="sm" mb={4}>
                Request body (application/json)
              </Text>
              <SchemaView schema={body} />
            </Box>
          )}
          {success.map(([code, r]) => (
            <Box key={code}>
              <Text fw={600} size="sm" mb={4}>
                Response {code}: {r.description}
              </Text>
              {r.content && <SchemaView schema={Object.values(r.content)[0].schema} />}
            </Box>
          ))}
          {op.responses.default && (
            <Text size="xs" c="dimmed">
              Errors: {op.responses.default.description}, as <Code>{'{ code, message }'}</Code>.
            </Text>
          )}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
