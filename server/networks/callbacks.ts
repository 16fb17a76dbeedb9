import { z } from 'zod';
import type { AppContext } from '../context';
import type { Uplink } from '../../src/contract/uplink.schema';
import { badRequest, notFound } from '../http/errors';
import { ingestUplink } from '../ingest/uplink';
import { linkQualityOf } from '../simulator/radio';
import { FrameError, decodeSigfoxUplink, encodeSigfoxDownlink, sigfoxCarries, sigfoxMeasurements } from './sigfox-frame';
import { decodeMyriotaFrame, myriotaMeasurements } from './myriota-frame';

/**
 * What the radio networks' cloud callbacks deliver, taken for an organisation whose secret the
 * caller has already checked: a Sigfox callback (data uplink or bidirectional) and Myriota
 * packets. The HTTP endpoints (network.routes.ts) and the simulator's Sigfox and Myriota sensors
 * both come through here, so a simulated radio sensor's frames travel the path a real one's do:
 * encoded by the radio's codec, decoded, stored by the one ingest path (idempotent on sensor and
 * time), published live after commit. A bad body or frame is a 400 with its reason, as is a sensor
 * of another radio; an unknown serial a 404; nothing is stored unless every part was understood.
 */

/** A callback variable as Sigfox fills it in: a number, or the number as text when the body template quotes it. */
const numeric = z.union([z.number().finite(), z.string().trim().regex(/^-?\d+(\.\d+)?$/, 'must be a number').transform(Number)]);
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** The custom JSON body of a Sigfox callback, from the callback variables (docs/device-protocol.md). */
export const sigfoxCallbackSchema = z
  .object({
    device: z.string().trim().regex(/^[0-9A-Fa-f]{1,8}$/, 'the Sigfox device id in hexadecimal ({device})'),
    time: numeric.pipe(z.number().int().min(0).max(8.64e12)),
    data: z.string(),
    seqNumber: numeric.pipe(z.number().int().min(0)).optional(),
    ack: flag.optional(),
    duplicate: flag.optional(),
    rssi: numeric.optional(),
    snr: numeric.optional(),
    linkQuality: z.enum(['EXCELLENT', 'GOOD', 'AVERAGE', 'LIMIT']).optional(),
  })
  .passthrough();
export type SigfoxCallback = z.infer<typeof sigfoxCallbackSchema>;

/** Myriota's destination envelope: Data is JSON text holding the packets. */
export const myriotaEnvelopeSchema = z.object({ EndpointRef: z.string().optional(), Timestamp: z.number().optional(), Id: z.string().optional(), Data: z.string() }).passthrough();
export const myriotaDataSchema = z.object({
  Packets: z
    .array(z.object({ Timestamp: z.number().int().min(0).max(8.64e15), TerminalId: z.string(), Value: z.string() }).passthrough())
    .min(1)
    .max(100),
});
export type MyriotaPacket = z.infer<typeof myriotaDataSchema>['Packets'][number];

/** A Sigfox device id as a sensor serial: upper-case, zero-padded to 6 or 8 characters. */
export const serialOfSigfoxId = (id: string) => {
  const up = id.toUpperCase();
  return up.length <= 6 ? up.padStart(6, '0') : up.padStart(8, '0');
};

const NETWORK_NAMES = { sigfox: 'Sigfox', myriota: 'Myriota' } as const;

/**
 * The sensors of the organisation among these serials, by serial: id and the task it has out
 * (Dispatched), if any. Each must have the network's radio: a callback naming a sensor of another
 * radio is a misconfigured device type or destination, refused before anything is stored (and a
 * Sigfox callback never hands such a sensor a task its 8 bytes cannot carry).
 */
async function sensorsOf(ctx: AppContext, orgId: string, serials: string[], network: keyof typeof NETWORK_NAMES) {
  const rows = await ctx.db.query<{ id: string; serial: string; radio: string | null; dispatched: string | null }>(
    `SELECT s.id, s.serial, s.radio->>'type' AS radio, (SELECT t.id FROM downlink_tasks t WHERE t.sensor_id = s.id AND t.status = 'Dispatched' ORDER BY t.dispatched_at LIMIT 1) AS dispatched
     FROM sensors s WHERE s.org_id = $1 AND s.serial = ANY($2::text[])`,
    [orgId, serials],
  );
  const found = new Map(rows.map((r) => [r.serial, r]));
  const missing = serials.filter((s) => !found.has(s));
  if (missing.length) throw notFound('UNKNOWN_DEVICE', `No sensor of this organisation has the serial ${missing.join(', ')}.`);
  const other = rows.find((r) => r.radio !== network);
  if (other) throw badRequest('WRONG_NETWORK', `Sensor ${other.serial} is not a ${NETWORK_NAMES[network]} sensor (its radio is ${other.radio ?? 'not set'}).`);
  return found;
}

/** What a Sigfox callback is answered with: the counts, or (bidirectional) the 8-byte downlink, or nothing to send. */
export type SigfoxAnswer = { stored: number; duplicates: number; downlinkData?: undefined } | { downlinkData: string | null };

export async function takeSigfoxCallback(ctx: AppContext, orgId: string, cb: SigfoxCallback): Promise<SigfoxAnswer> {
  let frame;
  try {
    frame = decodeSigfoxUplink(cb.data);
  } catch (err) {
    if (err instanceof FrameError) throw badRequest('INVALID_FRAME', err.message);
    throw err;
  }
  const serial = serialOfSigfoxId(cb.device);
  const sensor = (await sensorsOf(ctx, orgId, [serial], 'sigfox')).get(serial)!;
  const time = cb.time * 1000;
  const { measurements, errors } = sigfoxMeasurements(frame, time);
  const signal = cb.rssi;
  const up: Uplink = {
    serial,
    sentAt: time,
    measurements,
    errors,
    ...(frame.battery !== undefined ? { battery: frame.battery } : {}),
    ...(signal !== undefined ? { signalLevel: signal } : {}),
    ...(cb.linkQuality || signal !== undefined ? { linkQuality: cb.linkQuality ?? linkQualityOf('sigfox', signal) } : {}),
    // the frame reports the last downlink's result: that is the task the sensor has out
    appliedTasks: frame.report && sensor.dispatched ? [{ id: sensor.dispatched, ok: frame.report.ok }] : [],
  };
  // a downlink only when the device asks for one (and not on a base station's duplicate, whose answer Sigfox drops)
  const wantsDownlink = cb.ack === true && cb.duplicate !== true;
  const ack = await ingestUplink(ctx, undefined, up, { orgId, downlinks: wantsDownlink ? 'resend' : 'none' });
  if (!wantsDownlink) return { stored: ack.stored, duplicates: ack.duplicates };
  const task = ack.downlinks[0];
  if (!task) return { downlinkData: null };
  if (!sigfoxCarries(task.type)) {
    ctx.log.warn({ serial, task: task.id, type: task.type }, 'a queued task does not fit in a Sigfox downlink');
    return { downlinkData: null };
  }
  return { downlinkData: encodeSigfoxDownlink(task) };
}

export async function takeMyriotaPackets(ctx: AppContext, orgId: string, packets: MyriotaPacket[]): Promise<{ stored: number; duplicates: number }> {
  // every packet decoded and every sensor known before anything is stored
  const uplinks = packets.map((p, i) => {
    try {
      const frame = decodeMyriotaFrame(p.Value);
      const { measurements, errors } = myriotaMeasurements(frame, p.Timestamp);
      const up: Uplink = { serial: frame.serial, sentAt: p.Timestamp, measurements, errors, ...(frame.battery !== undefined ? { battery: frame.battery } : {}), appliedTasks: [] };
      return up;
    } catch (err) {
      if (err instanceof FrameError) throw badRequest('INVALID_FRAME', `Packet ${i}: ${err.message}`);
      throw err;
    }
  });
  await sensorsOf(ctx, orgId, [...new Set(uplinks.map((u) => u.serial))], 'myriota');
  const acks = await Promise.all(uplinks.map((up) => ingestUplink(ctx, undefined, up, { orgId, downlinks: 'none' })));
  return { stored: acks.reduce((n, a) => n + a.stored, 0), duplicates: acks.reduce((n, a) => n + a.duplicates, 0) };
}
