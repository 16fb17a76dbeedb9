import { ActionIcon, Button, ColorSwatch, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { MAX_REFERENCE_LINES, NEW_REFERENCE_LINE, REFERENCE_LINE_COLOURS } from '../../domain/sensor-settings';
import type { DisplayForm } from '../../domain/display-form';

type Line = DisplayForm['referenceLines'][number];

interface ReferenceLinesProps {
  lines: Line[];
  unit: string;
  errors: Record<string, string>;
  disabled: boolean;
  onChange(lines: Line[]): void;
}

/** Up to 3 reference lines: label, value in the organisation's unit, colour from the three offered (sensor-setup 3, 5). */
export function ReferenceLines({ lines, unit, errors, disabled, onChange }: ReferenceLinesProps) {
  const change = (i: number, patch: Partial<Line>) => onChange(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  return (
    <Stack gap="xs">
      {lines.length === 0 && (
        <Text size="sm" c="dimmed">
          No reference lines.
        </Text>
      )}
      {lines.map((line, i) => (
        <Group key={i} align="flex-start" gap="xs" wrap="wrap" data-testid="reference-line">
          <TextInput aria-label={`Reference line ${i + 1} label`} placeholder="Label" value={line.label} onChange={(e) => change(i, { label: e.currentTarget.value })} error={errors[`referenceLines.${i}.label`]} disabled={disabled} w={200} />
          <TextInput aria-label={`Reference line ${i + 1} value`} placeholder="Value" rightSection={<Text size="xs" c="dimmed">{unit}</Text>} inputMode="decimal" value={line.value} onChange={(e) => change(i, { value: e.currentTarget.value })} error={errors[`referenceLines.${i}.value`]} disabled={disabled} w={130} />
          <Select
            aria-label={`Reference line ${i + 1} colour`}
            data={REFERENCE_LINE_COLOURS.map((c) => ({ value: c.value, label: c.label }))}
            value={line.color}
            onChange={(c) => c && change(i, { color: c })}
            allowDeselect={false}
            leftSection={<ColorSwatch color={line.color} size={14} />}
            renderOption={({ option }) => (
              <Group gap="xs">
                <ColorSwatch color={option.value} size={14} />
                {option.label}
              </Group>
            )}
            error={errors[`referenceLines.${i}.color`]}
            disabled={disabled}
            w={130}
          />
          <ActionIcon variant="subtle" color="red" mt={4} aria-label={`Remove reference line ${i + 1}`} onClick={() => onChange(lines.filter((_, j) => j !== i))} disabled={disabled}>
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={disabled || lines.length >= MAX_REFERENCE_LINES}
          onClick={() => onChange([...lines, { label: NEW_REFERENCE_LINE.label, value: String(NEW_REFERENCE_LINE.value), color: NEW_REFERENCE_LINE.color }])}
        >
          Add reference line
        </Button>
        {errors.referenceLines && (
          <Text size="xs" c="red">
            {errors.referenceLines}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
