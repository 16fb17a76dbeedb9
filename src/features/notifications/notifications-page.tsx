import { Text } from '@mantine/core';

/** The organisation's notifications (being built: see issue 4). */
export function NotificationsPage() {
  return <Text>Notifications</Text>;
}
