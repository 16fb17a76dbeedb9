import { ActionIcon, CopyButton, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A read-only value that selects itself on click or focus, with a copy button (organisation-and-routes 2.1 "click-to-select"). */
export function SelectableField({ label, value, description }: { label: string; value: string; description?: string }) {
  const selectAll = (e: { currentTarget: HTMLInputElement }) => e.currentTarget.select();
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      readOnly
      onClick={selectAll}
      onFocus={selectAll}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', cursor: 'text' } }}
      rightSection={
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}
