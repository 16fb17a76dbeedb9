import { useState } from 'react';
import { Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { currentUserSchema } from '../../contract/user.schema';
import { formatTime, type TimeDisplay } from '../../domain/time-format';
import { displayChange, TIME_DISPLAYS, USER_SETTINGS_MESSAGES } from '../../domain/user-settings';
import { api, regionQuery } from '../../shared/api';
import { useSession } from '../../shared/session';
import type { UserSettingsProps } from './user-settings-page';

/** Display (organisation-and-routes 2.2, 5, 8): Friendly or AmericanLocal, saved when chosen, for every time the app shows. */
export function DisplaySection({ onUserChanged }: UserSettingsProps) {
  const { user, org } = useSession();
  const [value, setValue] = useState<TimeDisplay>(user.displaySettings.timeDisplay);
  const [saving, setSaving] = useState(false);
  const [now] = useState(() => Date.now());

  const choose = async (next: string) => {
    const change = displayChange(next, value);
    if (!change || saving) return;
    const before = value;
    setValue(change);
    setSaving(true);
    try {
      await api.patch(`/users/${user.cognitoIdentityId}`, { displaySettings: { timeDisplay: change } }, { schema: currentUserSchema, query: regionQuery() });
      notifications.show({ color: 'teal', message: USER_SETTINGS_MESSAGES.displayUpdated, autoClose: 4000 });
      onUserChanged();
    } catch {
      setValue(before);
      notifications.show({ color: 'red', message: USER_SETTINGS_MESSAGES.displayFailed, autoClose: 4000 });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Radio.Group label="Time display" description="How dates and times are shown across Tidewatch, in each organisation's time zone." value={value} onChange={(v) => void choose(v)}>
      <Stack gap="sm" mt="sm" maw={560}>
        {TIME_DISPLAYS.map((d) => (
          <Paper key={d.value} withBorder radius="md" p="md" bg={value === d.value ? 'var(--tw-selected-bg)' : undefined}>
            <Radio
              value={d.value}
              disabled={saving}
              label={
                <Group gap="xs" wrap="wrap">
                  <Text fw={600} size="sm">
                    {d.label}
                  </Text>
                  <Text size="sm" c="dimmed" ff="monospace" data-testid={`time-example-${d.value}`}>
                    {formatTime(now, d.value, org.locale.timezone)}
                  </Text>
                </Group>
              }
            />
          </Paper>
        ))}
      </Stack>
    </Radio.Group>
  );
}
