import type { TaskStatus, TaskType } from '../contract/downlink-task.schema';
import { moduleOf } from './sensor-types';

/** Remote-task rules shared by the form and the server (sensor-setup 2, 4, 6, 9; DESIGN.md "Sensor setup"). */

/** Firmware thresholds: the numbers the spec lists as task ids (DESIGN.md). */
export const FIRMWARE_MIN = { remote: 27, alarm: 34, radar: 35, extended: 41, transmission: 130, estimate: 65, scoringMethod: 70 } as const;

export const TASK_MIN_FIRMWARE: Record<TaskType, number> = {
  SensorConfig: FIRMWARE_MIN.remote,
  FirmwareDownload: FIRMWARE_MIN.remote,
  AlarmConfig: FIRMWARE_MIN.alarm,
  RadarConfig: FIRMWARE_MIN.radar,
  FullRadarConfig: FIRMWARE_MIN.radar,
  ExtendedConfig: FIRMWARE_MIN.extended,
  TransmissionConfig: FIRMWARE_MIN.transmission,
};

/** Queued (Created or Dispatched) tasks a sensor may hold per type (section 9). */
export const QUEUED_LIMIT: Record<TaskType, number> = {
  SensorConfig: 1,
  FirmwareDownload: 3,
  AlarmConfig: 3,
  RadarConfig: 1,
  FullRadarConfig: 1,
  ExtendedConfig: 1,
  TransmissionConfig: 1,
};

export const SITE_ADMIN_TYPES: ReadonlySet<TaskType> = new Set(['FirmwareDownload', 'RadarConfig', 'FullRadarConfig']);
const RADAR_TYPES: ReadonlySet<TaskType> = new Set(['RadarConfig', 'FullRadarConfig', 'TransmissionConfig']);

export const isQueued = (s: TaskStatus) => s === 'Created' || s === 'Dispatched';

export const BANNERS = {
  satellite: 'Remote tasks are currently not supported by the satellite network.',
  schedulerOff: 'The sensor is disabled, please turn on the scheduler of the sensor to use remote tasks.',
  firmware: (n: number) => `The sensor's firmware version must be ${n} or higher to access remote tasks.`,
} as const;

export const TASK_MESSAGES = {
  createFailed: 'Failed to submit the changes, please check your internet and try again later.',
  stateChanged: 'The state of the sensor is changed, please reload the page.',
  unchanged: 'The alarm is not changed, please change the alarm and submit again',
  firmwareLoadFailed: 'Failed to load firmware. Please check your internet connection and try again later.',
  noFirmware: 'No available firmware found. This sensor may already have the latest version of firmware or you have already scheduled remote tasks to upgrade.',
  noTypeLeft: 'You cannot create more remote tasks. Please cancel some queued tasks.',
  created: 'Remote task created.',
  canceled: 'Remote task canceled.',
  cancelFailed: 'Failed to cancel remote task, please check your internet connection and try again later.',
  loadFailed: 'An error occured while retrieving the data, please check your internet connection and try again.',
  radarCreated: 'Radar settings downlink created.',
  sensorUpdated: 'Sensor updated.',
  somethingWrong: 'Something went wrong',
  emptyQueued: 'This sensor does not have any queued tasks.',
  emptyCompleted: 'This sensor does not have any completed tasks.',
} as const;

/** What the rules need of a sensor. */
export interface TaskSensor {
  sensorType: string;
  radio: { type: string };
  config: { schedulerEnabled: boolean; measurementInterval: number; transmissionInterval: number; txCountOnAlarm?: number };
  latestBootInfo: { firmwareVersion?: number; hardwareVersion?: number; buildType?: string } | null;
}

export type Blocker = { kind: 'satellite' } | { kind: 'schedulerOff' } | { kind: 'firmware'; min: number };

/** Why the sensor takes no remote tasks at all (the three banners), or null. */
export function remoteTasksBlocker(sensor: TaskSensor): Blocker | null {
  if (sensor.radio.type === 'myriota') return { kind: 'satellite' };
  if (!sensor.config.schedulerEnabled) return { kind: 'schedulerOff' };
  if ((sensor.latestBootInfo?.firmwareVersion ?? 0) < FIRMWARE_MIN.remote) return { kind: 'firmware', min: FIRMWARE_MIN.remote };
  return null;
}

export const blockerMessage = (b: Blocker) => (b.kind === 'firmware' ? BANNERS.firmware(b.min) : BANNERS[b.kind]);

/** Whether the caller could ever create this type on this sensor (role, radio, module, firmware), limits aside. */
export function typePermitted(type: TaskType, sensor: TaskSensor, isSiteAdmin: boolean): boolean {
  if (remoteTasksBlocker(sensor)) return false;
  if (SITE_ADMIN_TYPES.has(type) && !isSiteAdmin) return false;
  if (type === 'FirmwareDownload' && !['cellular', 'wifi'].includes(sensor.radio.type)) return false;
  // a Sigfox downlink is 8 bytes: the full radar configuration does not fit (docs/device-protocol.md)
  if (type === 'FullRadarConfig' && sensor.radio.type === 'sigfox') return false;
  if (RADAR_TYPES.has(type) && moduleOf(sensor.sensorType) !== 'radar') return false;
  return (sensor.latestBootInfo?.firmwareVersion ?? 0) >= TASK_MIN_FIRMWARE[type];
}

export interface QueuedTask {
  type: TaskType;
  params: Record<string, unknown>;
}

/** Alarm types with a queued AlarmConfig task. */
export const queuedAlarmTypes = (queued: QueuedTask[]) =>
  new Set(queued.filter((t) => t.type === 'AlarmConfig').map((t) => String((t.params.value as { type?: string } | undefined)?.type)));

/** Whether the queue has room for one more of this type (section 9 and the alarm-type rule of section 4). */
export function underLimit(type: TaskType, queued: QueuedTask[]): boolean {
  if (queued.filter((t) => t.type === type).length >= QUEUED_LIMIT[type]) return false;
  if (type === 'AlarmConfig') {
    const q = queuedAlarmTypes(queued);
    const bothThresholds = q.has('THRESHOLD_INCREASING') && q.has('THRESHOLD_DECREASING');
    if (bothThresholds && (q.has('DELTA_INCREASING') || q.has('DELTA_DECREASING'))) return false;
  }
  return true;
}

/** The types offered in the Create modal, in the order of the select. */
export function allowedTaskTypes(sensor: TaskSensor, isSiteAdmin: boolean, queued: QueuedTask[]): TaskType[] {
  const order: TaskType[] = ['SensorConfig', 'AlarmConfig', 'ExtendedConfig', 'TransmissionConfig', 'RadarConfig', 'FullRadarConfig', 'FirmwareDownload'];
  // the update-rate and radar sections create SensorConfig and FullRadarConfig; the modal offers the rest too
  return order.filter((t) => typePermitted(t, sensor, isSiteAdmin) && underLimit(t, queued));
}

/** Labels of section 3; ExtendedConfig reads differently for site admins. */
export function taskTypeLabel(type: string, isSiteAdmin: boolean): string {
  switch (type) {
    case 'SensorConfig':
      return 'Update Scheduler';
    case 'FirmwareDownload':
      return 'Upgrade Firmware';
    case 'AlarmConfig':
      return 'Update Alarm Setting';
    case 'RadarConfig':
      return 'Update Radar Configuration';
    case 'ExtendedConfig':
      return isSiteAdmin ? 'Update Extended Configuration' : 'Update Alarm Mode Scheduler';
    case 'TransmissionConfig':
      return 'Update Transmission Config';
    case 'FullRadarConfig':
      return 'Update Full Radar Config';
    default:
      return type;
  }
}

export type StatusDisplay = 'queued' | 'executing' | 'ok' | 'error' | 'canceled' | 'na';

/** Status display of section 4. */
export function statusDisplay(status: string): { kind: StatusDisplay; label: string } {
  switch (status) {
    case 'Created':
      return { kind: 'queued', label: 'Queued' };
    case 'Dispatched':
      return { kind: 'executing', label: 'Executing...' };
    case 'Success':
      return { kind: 'ok', label: 'Success' };
    case 'Error':
      return { kind: 'error', label: 'Failed' };
    case 'Timeout':
      return { kind: 'error', label: 'Timeout' };
    case 'Canceled':
      return { kind: 'canceled', label: 'Canceled' };
    default:
      return { kind: 'na', label: 'N/A' };
  }
}

/** Only Created or Dispatched tasks show Cancel; only Created ones can be cancelled. */
export const cancelShown = (status: string) => status === 'Created' || status === 'Dispatched';
export const cancelEnabled = (status: string) => status === 'Created';
