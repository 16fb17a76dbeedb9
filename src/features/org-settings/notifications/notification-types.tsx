import { useState } from 'react';
import { Checkbox, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Organisation } from '../../../contract/organisation.schema';
import { ORG_SETTINGS_MESSAGES } from '../../../domain/org-settings';
import { api } from '../../../shared/api';
import type { SettingsSectionProps } from '../section-types';

type Settings = Organisation['notificationSettings'];
const ROWS: { key: keyof Settings; label: string }[] = [
  { key: 'alertAssert', label: 'Alert triggered' },
  { key: 'alertClear', label: 'Alert cleared' },
];
const CHANNELS: { key: 'email' | 'sms'; label: string }[] = [
  { key: 'email', label: 'Email' },
  { key: 'sms', label: 'SMS' },
];

/** Which alert events go out by email and SMS (organisation-and-routes 2.1); managers change them, saved at once. */
export function NotificationTypes({ org, isManager, refreshOrganisations }: SettingsSectionProps) {
  const [settings, setSettings] = useState<Settings>(org.notificationSettings);
  const [saving, setSaving] = useState(false);

  const toggle = async (row: keyof Settings, channel: 'email' | 'sms', value: boolean) => {
    const before = settings;
    const next = { ...settings, [row]: { ...settings[row], [channel]: value } };
    setSettings(next);
    setSaving(true);
    try {
      await api.put(`/organisations/${org.id}`, { name: org.name, measurementUnit: org.measurementUnit, notificationSettings: next });
      await refreshOrganisations();
    } catch {
      setSettings(before);
      notifications.show({ color: 'red', message: ORG_SETTINGS_MESSAGES.changeSettingsFailed, autoClose: 4000 });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Table withTableBorder verticalSpacing="xs" maw={520} aria-label="Notification Types">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Event</Table.Th>
          {CHANNELS.map((c) => (
            <Table.Th key={c.key} ta="center" w={110}>
              Send {c.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {ROWS.map((r) => (
          <Table.Tr key={r.key}>
            <Table.Td>{r.label}</Table.Td>
            {CHANNELS.map((c) => (
              <Table.Td key={c.key}>
                {isManager ? (
                  <Checkbox
                    styles={{ body: { justifyContent: 'center' } }}
                    aria-label={`${r.label}: send ${c.label}`}
                    checked={settings[r.key][c.key]}
                    disabled={saving}
                    onChange={(e) => void toggle(r.key, c.key, e.currentTarget.checked)}
                  />
                ) : (
                  // read-only for members and meter readers: a plain answer, not a greyed-out control
                  <Text size="sm" ta="center">
                    {settings[r.key][c.key] ? 'Yes' : 'No'}
                  </Text>
                )}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
