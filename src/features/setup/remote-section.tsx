import type { SectionProps } from './section-types';
import RemoteTasksSection from './remote-tasks/remote-tasks-section';

/** The 'remote' setup section (sensor-setup 2): the Remote Tasks screen. */
export default function RemoteSection({ sensor, org, isSiteAdmin, onSaved }: SectionProps) {
  return <RemoteTasksSection sensor={sensor} org={org} isSiteAdmin={isSiteAdmin} onSaved={onSaved} />;
}
