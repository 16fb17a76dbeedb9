import { z } from 'zod';
import { reportedRadarSettingsSchema } from './downlink-task.schema';
import { safeText } from './safe-text';

const time = z.number().int().min(0).max(8.64e15);

/** What a sensor (or its network server) sends: one transmission of one or more measurements. */
export const uplinkSchema = z.object({
  serial: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^([0-9A-F]{6}|[0-9A-F]{8})$/, 'serial must be 6 or 8 hexadecimal characters'),
  sentAt: time.optional(),
  measurements: z
    .array(
      z.object({
        time,
        rawDistance: z.number().finite().min(0).max(100_000),
        betaRawDistance: z.number().finite().min(0).max(100_000).nullable().optional(),
      }),
    )
    .max(100)
    .default([]),
  errors: z.array(z.object({ time, code: z.string().regex(/^E\d{1,2}$/, 'error codes look like E1') })).max(100).default([]),
  battery: z.number().min(0).max(100).optional(),
  signalLevel: z.number().finite().optional(),
  linkQuality: z.enum(['EXCELLENT', 'GOOD', 'AVERAGE', 'LIMIT', 'OFFLINE']).optional(),
  accelerometer: z.number().int().min(0).max(255).optional(),
  bootInfo: z
    .object({
      buildType: z.enum(['Alpha', 'Beta', 'Production']).optional(),
      firmwareVersion: z.number().int().min(0).optional(),
      sensorVersion: z.number().int().min(0).optional(),
      hardwareVersion: z.number().int().min(0).optional(),
    })
    .optional(),
  /** Downlink tasks the device applied since its last uplink. */
  appliedTasks: z.array(z.object({ id: z.string().uuid(), ok: z.boolean(), /** Why it failed, in the device's words (shown on the task's row). */ reason: safeText.max(200).optional() })).max(20).default([]),
  /** A radar device's current radar settings (sent after a boot); stored for the Radar Config screen. */
  radarSettings: reportedRadarSettingsSchema.optional(),
});
export type Uplink = z.infer<typeof uplinkSchema>;
export type UplinkInput = z.input<typeof uplinkSchema>;

export const uplinkAckSchema = z.object({
  stored: z.number().int(),
  duplicates: z.number().int(),
  downlinks: z.array(z.object({ id: z.string(), type: z.string(), params: z.record(z.string(), z.unknown()) })),
});
export type UplinkAck = z.infer<typeof uplinkAckSchema>;
