import type { ReactNode } from 'react';
import { Badge, Box, Code, Group, Stack, Text } from '@mantine/core';

/** A JSON Schema (draft 2020-12, as z.toJSONSchema writes it), as far as this page reads it. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
  $ref?: string;
  additionalProperties?: boolean | JsonSchema;
}

const isNull = (s: JsonSchema) => s.type === 'null';

/** One line naming a schema's type: 'string', 'integer', 'array of object', '"a" | "b"', ... */
export function typeLabel(s: JsonSchema): string {
  if (s.$ref) return s.$ref.replace(/^#\/(components\/schemas|\$defs)\//, '');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    const parts = union.filter((u) => !isNull(u)).map(typeLabel);
    return `${[...new Set(parts)].join(' | ')}${union.some(isNull) ? ' | null' : ''}`;
  }
  if (s.type === 'array') return `array of ${s.items ? typeLabel(s.items) : 'any'}`;
  if (Array.isArray(s.type)) return s.type.join(' | ');
  return s.type ?? 'any';
}

/** The constraints worth reading next to a field. */
function constraints(s: JsonSchema): string[] {
  const out: string[] = [];
  if (s.format) out.push(s.format);
  if (s.minLength !== undefined) out.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) out.push(`max length ${s.maxLength}`);
  if (s.minimum !== undefined) out.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) out.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined) out.push(`≤ ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) out.push(`< ${s.exclusiveMaximum}`);
  if (s.minItems !== undefined) out.push(`at least ${s.minItems}`);
  if (s.maxItems !== undefined) out.push(`at most ${s.maxItems}`);
  if (s.pattern) out.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

/** The object (or objects, for a union) whose fields are listed below a field. */
function children(s: JsonSchema): { label?: string; schema: JsonSchema }[] {
  if (s.properties) return [{ schema: s }];
  if (s.type === 'array' && s.items) return children(s.items);
  const union = (s.anyOf ?? s.oneOf ?? []).filter((u) => !isNull(u));
  const objects = union.filter((u) => children(u).length > 0);
  if (objects.length === 1) return children(objects[0]);
  return objects.map((u, i) => ({ label: `Variant ${i + 1}`, schema: children(u)[0]?.schema ?? u }));
}

function Field({ name, schema, required, depth }: { name: string; schema: JsonSchema; required: boolean; depth: number }) {
  const notes = constraints(schema);
  return (
    <Box pl={depth ? 'md' : 0} style={depth ? { borderLeft: '2px solid var(--tw-border)' } : undefined}>
      <Group gap={6} wrap="wrap" py={3}>
        <Code fw={600}>{name}</Code>
        <Text size="sm" c="tide" ff="monospace">
          {typeLabel(schema)}
        </Text>
        {required ? (
          <Badge size="xs" color="red" variant="light">
            required
          </Badge>
        ) : (
          <Text size="xs" c="dimmed">
            optional
          </Text>
        )}
        {notes.length > 0 && (
          <Text size="xs" c="dimmed">
            {notes.join(' · ')}
          </Text>
        )}
      </Group>
      {schema.description && (
        <Text size="xs" c="dimmed" pb={2}>
          {schema.description}
        </Text>
      )}
      {depth < 6 && <Fields schema={schema} depth={depth + 1} />}
    </Box>
  );
}

function Fields({ schema, depth }: { schema: JsonSchema; depth: number }): ReactNode {
  return children(schema).map(({ label, schema: object }, i) => (
    <Stack key={i} gap={0}>
      {label && (
        <Text size="xs" fw={600} c="dimmed" pt={4} pl={depth ? 'md' : 0}>
          {label}
        </Text>
      )}
      {Object.entries(object.properties ?? {}).map(([name, s]) => (
        <Field key={name} name={name} schema={s} required={(object.required ?? []).includes(name)} depth={depth} />
      ))}
    </Stack>
  ));
}

/** A schema as a tree of named, typed fields with their constraints. */
export function SchemaView({ schema }: { schema: JsonSchema }) {
  const fields = children(schema);
  if (!fields.length)
    return (
      <Text size="sm" ff="monospace" c="tide">
        {typeLabel(schema)}
        {constraints(schema).length ? ` (${constraints(schema).join(' · ')})` : ''}
      </Text>
    );
  return (
    <Stack gap={0}>
      {schema.type === 'array' && (
        <Text size="xs" c="dimmed">
          An array of:
        </Text>
      )}
      <Fields schema={schema} depth={0} />
    </Stack>
  );
}
