import { useRef, useState } from 'react';
import { Button, Combobox, Group, Menu, Text, useCombobox, VisuallyHidden } from '@mantine/core';
import { IconBuilding, IconCheck, IconChevronDown, IconSearch } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Organisation } from '../../contract/organisation.schema';
import { useSession } from '../../shared/session';
import { switchOrgPath, switcherKind } from '../sections';

/** A click that lands within this long of the typeahead opening is the opening click, not a choice. */
export const TYPEAHEAD_CLICK_GUARD_MS = 500;

/**
 * The organisation switcher (organisation-and-routes 2.5): a name for 1 organisation, a dropdown
 * up to 6, a 'Search organisations...' typeahead above 6. Switching rewrites the slug in the path.
 */
export function OrgSwitcher({ onSwitched, fullWidth, maw = 280 }: { onSwitched?: () => void; fullWidth?: boolean; /** the button's widest, beside other things in the navbar */ maw?: number }) {
  const { org, organisations } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const kind = switcherKind(organisations.length);
  const switchTo = (target: Organisation) => {
    if (target.id !== org.id) navigate(switchOrgPath(pathname, target));
    onSwitched?.();
  };

  if (kind === 'single') {
    return (
      <Group gap={8} wrap="nowrap" px="xs">
        <IconBuilding size={18} color="var(--tw-nav-active)" aria-hidden />
        <Text fw={600} size="sm" truncate maw={240}>
          <VisuallyHidden>Organisation: </VisuallyHidden>
          {org.name}
        </Text>
      </Group>
    );
  }
  const target = (onClick?: () => void) => (
    <Button onClick={onClick} variant="default" leftSection={<IconBuilding size={16} />} rightSection={<IconChevronDown size={14} />} fullWidth={fullWidth} justify="space-between" aria-label={`Organisation: ${org.name}`} maw={fullWidth ? undefined : maw}>
      <Text size="sm" fw={600} truncate>
        {org.name}
      </Text>
    </Button>
  );
  if (kind === 'dropdown') {
    return (
      <Menu position="bottom-end" width={260} shadow="md">
        <Menu.Target>{target()}</Menu.Target>
        <Menu.Dropdown>
          {/* presentational: a menu holds only menu items (axe aria-required-children) */}
          <Menu.Label role="presentation">Switch organisation</Menu.Label>
          {organisations.map((o) => (
            <Menu.Item key={o.id} onClick={() => switchTo(o)} rightSection={o.id === org.id ? <IconCheck size={16} /> : null} fw={o.id === org.id ? 600 : 400}>
              {o.name}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    );
  }
  return <OrgTypeahead current={org} organisations={organisations} onPick={switchTo} target={target} />;
}

function OrgTypeahead({ current, organisations, onPick, target }: { current: Organisation; organisations: Organisation[]; onPick: (o: Organisation) => void; target: (onClick: () => void) => React.ReactElement }) {
  const [search, setSearch] = useState('');
  const openedAt = useRef(0);
  const combobox = useCombobox({
    onDropdownOpen: () => {
      openedAt.current = Date.now();
      combobox.focusSearchInput();
    },
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setSearch('');
    },
  });
  const query = search.trim().toLowerCase();
  const shown = organisations.filter((o) => o.name.toLowerCase().includes(query));
  return (
    <Combobox
      store={combobox}
      width={300}
      position="bottom-end"
      shadow="md"
      // The switcher sits in the fixed header, so it never scrolls away from its dropdown.
      hideDetached={false}
      onOptionSubmit={(id) => {
        if (Date.now() - openedAt.current < TYPEAHEAD_CLICK_GUARD_MS) return;
        const picked = organisations.find((o) => o.id === id);
        combobox.closeDropdown();
        if (picked) onPick(picked);
      }}
    >
      <Combobox.Target withAriaAttributes={false}>{target(() => combobox.toggleDropdown())}</Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Search value={search} onChange={(e) => setSearch(e.currentTarget.value)} placeholder="Search organisations..." leftSection={<IconSearch size={14} />} aria-label="Search organisations" />
        <Combobox.Options mah={320} style={{ overflowY: 'auto' }}>
          {shown.length === 0 ? (
            <Combobox.Empty>No organisations match</Combobox.Empty>
          ) : (
            shown.map((o) => (
              <Combobox.Option key={o.id} value={o.id} active={o.id === current.id}>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm" fw={o.id === current.id ? 600 : 400} truncate>
                    {o.name}
                  </Text>
                  {o.id === current.id && <IconCheck size={14} />}
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
