import type { Firmware } from '../contract/sensor.schema';

/** Which build types a device on a build may take: Production only Production, Beta also Beta, Alpha any. */
const ACCEPTS: Record<string, Firmware['buildType'][]> = {
  Production: ['Production'],
  Beta: ['Production', 'Beta'],
  Alpha: ['Production', 'Beta', 'Alpha'],
};

export interface FirmwareSensor {
  latestBootInfo: { firmwareVersion?: number; hardwareVersion?: number; buildType?: string } | null;
}

/**
 * The firmware an Upgrade Firmware task may offer (issue 12): built for the sensor's hardware
 * version, of a build type its build accepts, newer than the installed main firmware (other
 * images: any version), and not already queued.
 */
export function firmwareApplies(f: Firmware, sensor: FirmwareSensor, queuedFwIds: ReadonlySet<string>): boolean {
  const boot = sensor.latestBootInfo ?? {};
  if (!boot.hardwareVersion || !f.applyTo.hardwareVersions.includes(boot.hardwareVersion)) return false;
  if (!(ACCEPTS[boot.buildType ?? 'Production'] ?? ACCEPTS.Production).includes(f.buildType)) return false;
  if (f.fwType === 'Main' && f.fwVersion <= (boot.firmwareVersion ?? 0)) return false;
  return !queuedFwIds.has(f.id);
}

export const applicableFirmware = (list: Firmware[], sensor: FirmwareSensor, queuedFwIds: ReadonlySet<string>) =>
  list.filter((f) => firmwareApplies(f, sensor, queuedFwIds)).sort((a, b) => a.fwType.localeCompare(b.fwType) || b.fwVersion - a.fwVersion);

export const firmwareLabel = (f: Firmware) => `${f.fwName} (${f.fwType} v${f.fwVersion}, ${f.buildType})`;
