import type { ComponentType, LazyExoticComponent } from 'react';
import type { Organisation } from '../../contract/organisation.schema';
import type { Sensor } from '../../contract/sensor.schema';
import type { MapStyles } from '../../shared/session';

/** What every setup section receives from the frame. */
export interface SectionProps {
  sensor: Sensor;
  org: Organisation;
  isSiteAdmin: boolean;
  mobile: boolean;
  /** Map styles from /config.json (the location section). */
  mapStyles: MapStyles;
  /** The deployment is in the production stage (the radar section is hidden there). */
  production: boolean;
  /** The path of another section of this sensor (links such as 'Advanced Settings'). */
  sectionPath(id: string): string;
  /** A save answered the updated sensor: the list, dashboard and chart take it at once. */
  onSaved(sensor: Sensor): void;
}

/** What decides whether a section shows for a sensor (DESIGN.md "Sensor setup"). */
export interface SectionContext {
  sensor: Sensor;
  isSiteAdmin: boolean;
  /** The caller is an admin or owner of the organisation. */
  isManager: boolean;
  /** A fuel installation record exists (undefined while it loads). */
  hasFuelInstall: boolean | undefined;
  /** The deployment is in the production stage (config.json's stage; absent counts as production). */
  production: boolean;
}

export interface SetupSection {
  /** The path segment: {sensorsUrl}/{serial}/setup/{id}. */
  id: string;
  /** The menu entry and screen title (sensor-setup 2). */
  title: string;
  component: LazyExoticComponent<ComponentType<SectionProps>>;
  /** Whether the section shows; undefined means 'not known yet' (wait before redirecting). */
  visible(ctx: SectionContext): boolean | undefined;
}
