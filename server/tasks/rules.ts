import { HttpError, badRequest, conflict, forbidden } from '../http/errors';
import type { SensorDbRow } from '../gateway/sensors.routes';
import type { TaskRow } from './lifecycle';
import type { Alarm, Firmware } from '../../src/contract/sensor.schema';
import { REMOTE_TASK_CODES as CODES, type CreateTaskRequest } from '../../src/contract/downlink-task.schema';
import { SITE_ADMIN_TYPES, TASK_MESSAGES, blockerMessage, remoteTasksBlocker, typePermitted, underLimit, type TaskSensor } from '../../src/domain/remote-tasks';
import { alarmsInForce, alarmValueError, offeredAlarmTypes, sameAlarm, userRangeErrors } from '../../src/domain/task-params';
import { alarmOptions, scheduleErrors, SCHEDULE_MESSAGES } from '../../src/domain/update-rate';
import { firmwareApplies } from '../../src/domain/firmware';
import { FIRMWARE_MIN } from '../../src/domain/remote-tasks';

const invalid = (message: string) => badRequest(CODES.invalid, message);

const taskSensor = (s: SensorDbRow): TaskSensor => ({ sensorType: s.sensor_type, radio: s.radio, config: s.config, latestBootInfo: s.latest_boot_info });

/**
 * Every rule of a new remote task, on the server (sensor-setup 4, 5, 6, 9): the sensor must take
 * remote tasks, the caller's role the type, the queue must have room, and the params must pass the
 * form's rules against the sensor as it is now (row locked by the caller). Answers the params to
 * store (fields a non-site-admin may not change are kept as they are; derived fields recomputed).
 */
export function checkCreate(
  req: CreateTaskRequest,
  sensor: SensorDbRow,
  isSiteAdmin: boolean,
  queued: TaskRow[],
  firmware: Firmware | undefined,
): Record<string, unknown> {
  const ts = taskSensor(sensor);
  const blocker = remoteTasksBlocker(ts);
  if (blocker) {
    const code = blocker.kind === 'satellite' ? CODES.notSupported : blocker.kind === 'schedulerOff' ? CODES.schedulerOff : CODES.firmware;
    throw badRequest(code, blockerMessage(blocker));
  }
  if (SITE_ADMIN_TYPES.has(req.type) && !isSiteAdmin) throw forbidden('Only site admins can create this remote task.');
  if (!typePermitted(req.type, ts, isSiteAdmin)) throw badRequest(CODES.notAllowed, 'This remote task is not available for this sensor.');
  if (!underLimit(req.type, queued)) throw conflict(CODES.limit, TASK_MESSAGES.noTypeLeft);

  switch (req.type) {
    case 'SensorConfig': {
      const p = req.params;
      const e = scheduleErrors({
        radio: sensor.radio.type,
        currentMeasurement: sensor.config.measurementInterval,
        measurementInterval: p.measurementInterval,
        transmissionInterval: p.measurementInterval * p.measurementsPerTransmission,
        deltaCompressionEnabled: p.deltaCompressionEnabled,
        maxGradient: p.maxGradient,
      });
      const first = Object.values(e)[0];
      if (first) throw invalid(first);
      return p;
    }
    case 'AlarmConfig':
      return checkAlarm(req.params, sensor, queued);
    case 'FirmwareDownload': {
      const queuedIds = new Set(queued.filter((t) => t.type === 'FirmwareDownload').map((t) => String(t.params.fwId)));
      if (!firmware) throw invalid('The firmware does not exist.');
      if (!firmwareApplies(firmware, ts, queuedIds)) throw invalid('This firmware does not apply to the sensor, or an upgrade to it is already queued.');
      // the task names its firmware, so its row reads without the firmware list (site admins' only)
      return { ...req.params, fwName: firmware.fwName, fwType: firmware.fwType, fwVersion: firmware.fwVersion };
    }
    case 'RadarConfig': {
      const p = req.params;
      const scoring = (sensor.latest_boot_info?.firmwareVersion ?? 0) >= FIRMWARE_MIN.scoringMethod;
      if (scoring && p.scoringMethod === undefined) throw invalid('Choose a scoring method.');
      if (!scoring && p.hwAvg === undefined) throw invalid('Hardware average is required');
      const { hwAvg, scoringMethod, ...rest } = p;
      return scoring ? { ...rest, scoringMethod } : { ...rest, hwAvg };
    }
    case 'ExtendedConfig': {
      const p = req.params;
      // the alarm-mode options follow the schedule being applied (pendingConfig) or the current one
      const sched = (sensor.pending_config as { measurementInterval?: number; transmissionInterval?: number } | null) ?? sensor.config;
      const opts = alarmOptions(Number(sched.measurementInterval), Number(sched.transmissionInterval));
      if (!opts.length) throw invalid(SCHEDULE_MESSAGES.noAlarmOptions);
      if (!(opts as number[]).includes(p.txCountOnAlarm)) throw invalid(SCHEDULE_MESSAGES.invalidAlarm);
      if (!isSiteAdmin) {
        // the user range is a site-admin field: others send the alarm mode only, the range stays
        const r = sensor.range_config ?? { enabled: false };
        return { txCountOnAlarm: p.txCountOnAlarm, userRangeEnabled: r.enabled, userRangeMin: r.min ?? p.userRangeMin, userRangeMax: r.max ?? p.userRangeMax };
      }
      if (p.userRangeEnabled) {
        const e = userRangeErrors(sensor.sensor_type, p.userRangeMin, p.userRangeMax);
        if (e.min ?? e.max) throw invalid((e.min ?? e.max)!);
      }
      return p;
    }
    case 'TransmissionConfig': {
      const p = req.params;
      if (p.additionalRadarDataEnabled && p.startingLevelMm === null) throw invalid('Enter a valid starting level');
      return p;
    }
    case 'FullRadarConfig': {
      const p = req.params;
      if (p.endDistance <= p.startDistance) throw invalid('The end distance must be greater than the start distance');
      return { ...p, length: Math.round((p.endDistance - p.startDistance) * 1000) / 1000 };
    }
  }
}

function checkAlarm(p: Extract<CreateTaskRequest, { type: 'AlarmConfig' }>['params'], sensor: SensorDbRow, queued: TaskRow[]) {
  const alarms = (sensor.alarms ?? {}) as Record<string, Alarm>;
  const queuedAlarms = queued.filter((t) => t.type === 'AlarmConfig');
  const stateChanged = (code: string) => new HttpError(409, code, TASK_MESSAGES.stateChanged);
  if (queuedAlarms.some((t) => Number(t.params.index) === p.index || (t.params.value as Alarm).type === p.value.type)) throw stateChanged(CODES.duplicateAlarm);
  if (!sameAlarm(p.original, alarms[String(p.index)] ?? null)) throw stateChanged(CODES.alarmConflict);
  if (sameAlarm(p.value, p.original)) throw badRequest(CODES.unchanged, TASK_MESSAGES.unchanged);
  const current = alarms[String(p.index)];
  if (!(current?.type === p.value.type) && !offeredAlarmTypes(alarms, new Set()).includes(p.value.type)) throw invalid('This alarm type is not available for this sensor.');
  // the ordering rule compares with the thresholds in force once the queue has run
  const others = alarmsInForce(alarms, queuedAlarms.map((t) => t.params.value as Alarm), p.index);
  const err = alarmValueError(p.value, { sensorType: sensor.sensor_type, offset: sensor.display_info?.offsetMeasurement }, others);
  if (err) throw invalid(err);
  return p;
}
