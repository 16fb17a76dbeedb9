import { Button, Group, Modal, Text } from '@mantine/core';

const WARNINGS = {
  offset: { title: 'Turn off the offset?', text: 'Turning off the offset clears the offset and the display limits.' },
  conversion: { title: 'Turn off the conversion?', text: 'Turning off the conversion clears the conversion settings.' },
};

/** The warning before turning off the offset or the conversion clears what depends on it (sensor-setup 4). */
export function ConfirmOff({ what, onConfirm, onCancel }: { what: 'offset' | 'conversion' | null; onConfirm(): void; onCancel(): void }) {
  const w = what ? WARNINGS[what] : WARNINGS.offset;
  return (
    <Modal opened={what !== null} onClose={onCancel} title={w.title} centered>
      <Text size="sm">{w.text}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="orange" onClick={onConfirm}>
          Turn off
        </Button>
      </Group>
    </Modal>
  );
}
