import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { Uplink } from '../../src/contract/uplink.schema';
import { HttpError, badRequest, notFound } from '../http/errors';
import { ingestUplink } from '../ingest/uplink';
import { linkQualityOf } from '../simulator/radio';
import { orgOfSecret, SECRET_HEADER, type Network } from './network-secrets';
import { FrameError, decodeSigfoxUplink, encodeSigfoxDownlink, sigfoxCarries, sigfoxMeasurements } from './sigfox-frame';
import { decodeMyriotaFrame, myriotaMeasurements } from './myriota-frame';

/**
 * Radio networks' cloud callbacks under /ingest (docs/device-protocol.md): the Sigfox backend's
 * custom callbacks (data uplink and bidirectional) and Myriota's HTTP destination. A callback is
 * authenticated by the organisation's secret for that network (header X-Tidewatch-Secret; Myriota's
 * destination, a bare URL, may put it in the path instead), and takes uplinks only for the
 * organisation's own sensors. Its frame is decoded by the radio's one codec and stored through the
 * same ingest path as every uplink (idempotent on sensor and time: a repeated callback stores
 * nothing twice), which publishes it live after commit.
 */

const unauthorised = () => new HttpError(401, 'INVALID_NETWORK_SECRET', 'Unknown or missing callback secret.');

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

/** Myriota's destination envelope: Data is JSON text holding the packets. */
export const myriotaEnvelopeSchema = z.object({ EndpointRef: z.string().optional(), Timestamp: z.number().optional(), Id: z.string().optional(), Data: z.string() }).passthrough();
export const myriotaDataSchema = z.object({
  Packets: z
    .array(z.object({ Timestamp: z.number().int().min(0).max(8.64e15), TerminalId: z.string(), Value: z.string() }).passthrough())
    .min(1)
    .max(100),
});

/** A Sigfox device id as a sensor serial: upper-case, zero-padded to 6 or 8 characters. */
export const serialOfSigfoxId = (id: string) => {
  const up = id.toUpperCase();
  return up.length <= 6 ? up.padStart(6, '0') : up.padStart(8, '0');
};

const reason = (e: z.ZodError, what: string) => {
  const i = e.issues[0];
  return `Invalid ${what}: ${i.path.join('.') || 'body'}: ${i.message}`;
};

async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw badRequest('INVALID_JSON', 'The callback body is not valid JSON.');
  }
}

async function authorise(ctx: AppContext, c: Context, network: Network, inPath?: string) {
  const orgId = await orgOfSecret(ctx.db, network, c.req.header(SECRET_HEADER) ?? inPath);
  if (!orgId) {
    ctx.log.warn({ network, ip: c.req.header('x-forwarded-for') }, 'network callback refused: unknown or missing secret');
    throw unauthorised();
  }
  return orgId;
}

/** The sensors of the organisation among these serials, by serial: id and the task it has out (Dispatched), if any. */
async function sensorsOf(ctx: AppContext, orgId: string, serials: string[]) {
  const rows = await ctx.db.query<{ id: string; serial: string; dispatched: string | null }>(
    `SELECT s.id, s.serial, (SELECT t.id FROM downlink_tasks t WHERE t.sensor_id = s.id AND t.status = 'Dispatched' ORDER BY t.dispatched_at LIMIT 1) AS dispatched
     FROM sensors s WHERE s.org_id = $1 AND s.serial = ANY($2::text[])`,
    [orgId, serials],
  );
  const found = new Map(rows.map((r) => [r.serial, r]));
  const missing = serials.filter((s) => !found.has(s));
  if (missing.length) throw notFound('UNKNOWN_DEVICE', `No sensor of this organisation has the serial ${missing.join(', ')}.`);
  return found;
}

export function networkRoutes(ctx: AppContext) {
  const r = new Hono();

  r.post('/sigfox', async (c) => {
    const orgId = await authorise(ctx, c, 'sigfox');
    const parsed = sigfoxCallbackSchema.safeParse(await jsonBody(c));
    if (!parsed.success) throw badRequest('INVALID_CALLBACK', reason(parsed.error, 'Sigfox callback'));
    const cb = parsed.data;
    let frame;
    try {
      frame = decodeSigfoxUplink(cb.data);
    } catch (err) {
      if (err instanceof FrameError) throw badRequest('INVALID_FRAME', err.message);
      throw err;
    }
    const serial = serialOfSigfoxId(cb.device);
    const sensor = (await sensorsOf(ctx, orgId, [serial])).get(serial)!;
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
    if (!wantsDownlink) return c.json({ stored: ack.stored, duplicates: ack.duplicates });
    const task = ack.downlinks[0];
    if (!task) return c.body(null, 204); // Sigfox's way of saying: nothing to send
    if (!sigfoxCarries(task.type)) {
      ctx.log.warn({ serial, task: task.id, type: task.type }, 'a queued task does not fit in a Sigfox downlink');
      return c.body(null, 204);
    }
    return c.json({ [cb.device]: { downlinkData: encodeSigfoxDownlink(task) } });
  });

  const myriota = async (c: Context, inPath?: string) => {
    const orgId = await authorise(ctx, c, 'myriota', inPath);
    const envelope = myriotaEnvelopeSchema.safeParse(await jsonBody(c));
    if (!envelope.success) throw badRequest('INVALID_CALLBACK', reason(envelope.error, 'Myriota message'));
    let data: unknown;
    try {
      data = JSON.parse(envelope.data.Data);
    } catch {
      throw badRequest('INVALID_CALLBACK', 'Invalid Myriota message: Data: is not JSON text.');
    }
    const packets = myriotaDataSchema.safeParse(data);
    if (!packets.success) throw badRequest('INVALID_CALLBACK', reason(packets.error, 'Myriota message Data'));
    // every packet decoded and every sensor known before anything is stored
    const uplinks = packets.data.Packets.map((p, i) => {
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
    await sensorsOf(ctx, orgId, [...new Set(uplinks.map((u) => u.serial))]);
    const acks = await Promise.all(uplinks.map((up) => ingestUplink(ctx, undefined, up, { orgId, downlinks: 'none' })));
    return c.json({ stored: acks.reduce((n, a) => n + a.stored, 0), duplicates: acks.reduce((n, a) => n + a.duplicates, 0) });
  };
  r.post('/myriota', (c) => myriota(c));
  r.post('/myriota/:secret', (c) => myriota(c, c.req.param('secret')));
  return r;
}
