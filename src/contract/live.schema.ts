import { z } from 'zod';
import { latestDataSchema } from './sensor.schema';

/** Payload on orgs/{orgId}/sensors/{sensorId}/measurements after an uplink commits. */
export const liveMeasurementMessageSchema = z.object({
  sensorId: z.string(),
  serial: z.string(),
  measurements: z.array(z.object({ time: z.number(), rawDistance: z.number(), betaRawDistance: z.number().nullable().optional() })),
  latestData: latestDataSchema.passthrough(),
});
export type LiveMeasurementMessage = z.infer<typeof liveMeasurementMessageSchema>;

/**
 * How the chart machine receives live points without knowing the transport (MQTT in the app,
 * a fake in tests). Returns an unsubscribe function.
 */
export type LiveSubscribe = (
  target: { orgId: string; sensorId: string },
  onMessage: (msg: LiveMeasurementMessage) => void,
  onError?: (err: Error) => void,
) => () => void;
