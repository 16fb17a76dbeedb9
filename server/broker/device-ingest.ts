import type { AppContext } from '../context';
import type { UplinkAck } from '../../src/contract/uplink.schema';
import { HttpError } from '../http/errors';
import { JsonTooDeep, parseClientJson } from '../http/json-depth';
import { ingestUplink } from '../ingest/uplink';
import { parseUplink } from '../ingest/uplink-parse';

export type DeviceIngestResult =
  | { ok: true; ack: UplinkAck }
  /** permanent: the uplink is refused and retrying it cannot help; otherwise a retry may succeed */
  | { ok: false; permanent: boolean; code: string; message: string };

/** devices/{serial}/uplink: the serial of a device topic, or undefined. */
export const uplinkTopicSerial = (topic: string) => /^devices\/([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})\/uplink$/.exec(topic)?.[1].toUpperCase();

/** The MQTT 5 user property an uplink through an external broker carries its device key in (docs/device-protocol.md). */
export const DEVICE_KEY_PROPERTY = 'device-key';

/**
 * An uplink received over MQTT, through the same ingest path as HTTP. The topic names the
 * sensor; a payload naming another serial is refused. The device key is the connection's (the
 * embedded broker authenticated it), or travels with the uplink (an external broker: `deviceKey`,
 * the user property, else a `deviceKey` field of the body, which is taken out before the body is
 * checked). Resolves only after the commit, so the caller acknowledges (PUBACK) only stored uplinks.
 */
export async function ingestDeviceMessage(ctx: AppContext, serial: string, payload: Buffer, auth: { deviceKey?: string | string[] }): Promise<DeviceIngestResult> {
  let body: unknown;
  try {
    body = parseClientJson(payload.toString('utf8'));
  } catch (err) {
    return { ok: false, permanent: true, code: 'INVALID_JSON', message: err instanceof JsonTooDeep ? err.message : 'The uplink body is not valid JSON.' };
  }
  // a repeated user property is not a key
  let deviceKey = typeof auth.deviceKey === 'string' ? auth.deviceKey : undefined;
  if (body && typeof body === 'object' && !Array.isArray(body) && 'deviceKey' in body) {
    const { deviceKey: inBody, ...rest } = body as { deviceKey?: unknown };
    if (deviceKey === undefined && auth.deviceKey === undefined && typeof inBody === 'string') deviceKey = inBody;
    body = rest;
  }
  if (body && typeof body === 'object' && !Array.isArray(body) && (body as { serial?: unknown }).serial === undefined) body = { ...body, serial };
  const parsed = parseUplink(body);
  if (!parsed.success) return { ok: false, permanent: true, code: 'INVALID_UPLINK', message: parsed.message };
  if (parsed.data.serial !== serial.toUpperCase()) {
    return { ok: false, permanent: true, code: 'SERIAL_MISMATCH', message: 'The uplink names another sensor than its topic.' };
  }
  try {
    return { ok: true, ack: await ingestUplink(ctx, deviceKey, parsed.data) };
  } catch (err) {
    if (err instanceof HttpError) return { ok: false, permanent: true, code: err.code, message: err.message };
    ctx.log.warn({ err, serial }, 'MQTT uplink not stored');
    return { ok: false, permanent: false, code: 'NOT_STORED', message: 'The uplink could not be stored; send it again.' };
  }
}
