import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { loadConfig } from '../../server/config';

describe('configuration (issue 2: a bad value stops start-up naming it)', () => {
  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', SIMULATOR_SPEED: '-2' })).toThrow(/PORT[\s\S]*SIMULATOR_SPEED/);
  });
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.DATA_DIR).toBe('./data');
    expect(c.SEED_DEMO).toBe(true);
  });
});

describe.each(testDrivers)('foundation on %s', (driver) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(driver);
  });
  afterAll(() => s?.close());

  it('/api/health reports database and broker ok', async () => {
    const res = await s.api('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: 'ok', broker: 'ok', driver });
  });

  it('answers 401 JSON on gateway routes without a token, or with a bad one', async () => {
    for (const token of [undefined, 'Bearer nonsense']) {
      const res = await s.api('/organisations', { token });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('serves /config.json with the identity, API and MQTT endpoints', async () => {
    const cfg = await (await fetch(`${s.url}/config.json`)).json();
    expect(cfg.auth.userPoolId).toContain('_');
    expect(cfg.auth.userPoolEndpoint).toBe(`${s.url}/identity`);
    expect(cfg.mqtt.url).toBe(`${s.url.replace('http', 'ws')}/mqtt`);
  });

  describe('POST /ingest/uplink', () => {
    let sensor: Awaited<ReturnType<typeof makeSensor>>;
    beforeAll(async () => {
      const org = await makeOrg(s.ctx.db);
      const u = await makeUser(s.ctx.db);
      await addMember(s.ctx.db, org.id, u.id, 1);
      sensor = await makeSensor(s.ctx.db, org.id);
    });
    const send = (body: unknown, key = sensor.deviceKey) =>
      fetch(`${s.url}/ingest/uplink`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Device-Key': key }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const count = async () => Number((await s.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM measurements WHERE sensor_id = $1', [sensor.id]))[0].n);

    it('stores an uplink once even when it is sent twice, and updates the latest data', async () => {
      const body = { serial: sensor.serial, measurements: [{ time: 1_700_000_000_000, rawDistance: 1234 }], battery: 87, signalLevel: 18 };
      const first = await send(body);
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ stored: 1, duplicates: 0 });
      const second = await send(body);
      expect(await second.json()).toMatchObject({ stored: 0, duplicates: 1 });
      expect(await count()).toBe(1);
      const row = (await s.ctx.db.query<{ latest_data: Record<string, unknown> }>('SELECT latest_data FROM sensors WHERE id = $1', [sensor.id]))[0];
      expect(row.latest_data).toMatchObject({ battery: 87, signalLevel: 18, lastMeasurement: { time: 1_700_000_000_000, rawDistance: 1234 } });
    });

    it('refuses a wrong device key and stores nothing', async () => {
      const before = await count();
      const res = await send({ serial: sensor.serial, measurements: [{ time: 1_700_000_060_000, rawDistance: 1 }] }, 'wrong-key');
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'INVALID_DEVICE_KEY' });
      expect(await count()).toBe(before);
    });

    it('answers 400 with a clear message to malformed bodies and stores nothing', async () => {
      const before = await count();
      for (const body of ['{not json', { serial: 'XYZ' }, { serial: sensor.serial, measurements: [{ time: -5, rawDistance: 'far' }] }]) {
        const res = await send(body);
        expect(res.status).toBe(400);
        const err = await res.json();
        expect(err.code).toMatch(/^INVALID_/);
        expect(err.message.length).toBeGreaterThan(10);
      }
      expect(await count()).toBe(before);
    });
  });
});

describe('SMS settings (issue 6: SMS behind one provider interface)', () => {
  it('take all three Twilio variables or none, naming the missing ones', () => {
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'AC12345678' })).toThrow(/TWILIO_AUTH_TOKEN: is required with TWILIO_ACCOUNT_SID[\s\S]*TWILIO_FROM: is required/);
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'AC12345678', TWILIO_AUTH_TOKEN: 'secret-token', TWILIO_FROM: '021 999' })).toThrow(/TWILIO_FROM: must be an E.164 number/);
    expect(loadConfig({ TWILIO_ACCOUNT_SID: 'AC12345678', TWILIO_AUTH_TOKEN: 'secret-token', TWILIO_FROM: '+6421999000' }).TWILIO_FROM).toBe('+6421999000');
    expect(loadConfig({}).TWILIO_ACCOUNT_SID).toBeUndefined();
  });
});
