import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { MEMBER_ACTION_LABELS, type MemberAction } from '../../../domain/org-settings';

/** A row's actions in a menu; none when the viewer may take none. */
export function MemberActionsMenu({ who, actions, busy, onAction }: { who: string; actions: MemberAction[]; busy: boolean; onAction(a: MemberAction): void }) {
  if (!actions.length) return null;
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray.8" aria-label={`Actions for ${who}`} disabled={busy}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((a) => (
          <Menu.Item key={a} color={a === 'remove' || a === 'cancelInvite' || a === 'resetMfa' ? 'red' : undefined} onClick={() => onAction(a)}>
            {MEMBER_ACTION_LABELS[a]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
