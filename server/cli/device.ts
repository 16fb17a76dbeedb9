import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Uplink, UplinkAck } from '../../src/contract/uplink.schema';

/**
 * The reference device (docs/device-protocol.md): `npm run device -- --serial S --key K [--url U]
 * [--every SECONDS]` posts an uplink to /ingest/uplink as a tank sensor would, one measurement a
 * transmission, applies the remote tasks the ack hands it (reporting each in its next uplink),
 * and prints every answer, so an integrator sees a sensor appear and report.
 */
export interface DeviceState {
  serial: string;
  level: number;
  battery: number;
  applied: { id: string; ok: boolean }[];
}

/** The next uplink of the device at `now`: a slowly falling level, the battery, what it applied since. */
export function nextUplink(d: DeviceState, now: number): Uplink {
  d.level = Math.max(200, d.level - 3 + Math.round(Math.sin(now / 3_600_000) * 2));
  const up: Uplink = { serial: d.serial, sentAt: now, measurements: [{ time: now, rawDistance: 3000 - d.level }], errors: [], battery: Math.round(d.battery), appliedTasks: d.applied };
  d.battery = Math.max(0, d.battery - 0.01);
  return up;
}

/** Books an answer: the reported tasks are done with, the new downlinks applied (a reference device accepts each). */
export function takeAck(d: DeviceState, ack: UplinkAck) {
  d.applied = ack.downlinks.map((t) => ({ id: t.id, ok: true }));
}

async function main() {
  const { values } = parseArgs({ options: { serial: { type: 'string' }, key: { type: 'string' }, url: { type: 'string', default: 'http://localhost:8080' }, every: { type: 'string', default: '10' } } });
  if (!values.serial || !values.key) {
    console.error('usage: npm run device -- --serial <serial> --key <device key> [--url http://localhost:8080] [--every 10]');
    process.exit(2);
  }
  const d: DeviceState = { serial: values.serial.toUpperCase(), level: 2000, battery: 100, applied: [] };
  const every = Math.max(1, Number(values.every)) * 1000;
  for (;;) {
    const up = nextUplink(d, Date.now());
    const res = await fetch(`${values.url}/ingest/uplink`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Device-Key': values.key }, body: JSON.stringify(up) }).catch((err: Error) => err);
    if (res instanceof Error) console.error(`not sent: ${res.message}`);
    else {
      const text = await res.text();
      console.log(`${new Date().toISOString()} ${res.status} ${text}`);
      if (res.ok) takeAck(d, JSON.parse(text) as UplinkAck);
      else if (res.status === 401) process.exit(1);
    }
    await new Promise((r) => setTimeout(r, every));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
