import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs } from './live-helpers';
import { encodeSigfoxUplink, decodeSigfoxDownlink } from '../../server/networks/sigfox-frame';
import { encodeMyriotaFrame } from '../../server/networks/myriota-frame';
import type { NetworkIntegrations } from '../../src/contract/network-integrations.schema';
import { estimateApplyAt, SIGFOX_DOWNLINK_GAP_MS, type EstimateSensor } from '../../src/domain/task-estimate';

// Callbacks in the networks' documented shapes (docs/device-protocol.md), replayed against the real server.
describe.each(testDrivers)('Sigfox and Myriota cloud callbacks on %s (issue 39)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let managerToken: string;
  let memberToken: string;
  let strangerToken: string;
  let secrets: NetworkIntegrations;
  const T = 1_790_000_000; // seconds
  const SIGFOX_ANSWER_LIMIT_MS = 10_000;

  const sigfox = (body: unknown, secret: string | null = secrets.sigfox.secret) =>
    fetch(`${s.url}/ingest/sigfox`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(secret !== null ? { 'X-Tidewatch-Secret': secret } : {}) }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const myriota = (body: unknown, path = `/${secrets.myriota.secret}`, headers: Record<string, string> = {}) =>
    fetch(`${s.url}/ingest/myriota${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const count = async (sensorId: string) => (await s.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM measurements WHERE sensor_id = $1', [sensorId]))[0].n;
  // the body a Sigfox custom callback builds from its variables, numbers quoted as the console's template often does
  const callback = (device: string, time: number, data: string, more: Record<string, unknown> = {}) => ({ device, time: String(time), data, seqNumber: '17', rssi: '-118.00', snr: '12.5', station: '1A2B', duplicate: 'false', ...more });
  const frame = (d: [number | null, number | null, number | null], more: Parameters<typeof encodeSigfoxUplink>[0] extends infer F ? Partial<F> : never = {}) => encodeSigfoxUplink({ spacingMinutes: 10, battery: 90, distances: d, ...more });
  // Myriota's destination envelope: Data is JSON text with the packets, signed as Myriota signs it
  // (RSA SHA-256 over EndpointRef, Timestamp, Id and Data), here with a test certificate issued to Myriota's name
  const CERTIFICATES = join(import.meta.dirname, 'fixtures', 'myriota');
  const signingKey = createPrivateKey(readFileSync(join(CERTIFICATES, 'test-signing.key')));
  const signed = <E extends { EndpointRef: string; Timestamp: number; Id: string; Data: string }>(e: E, key = signingKey) => ({
    ...e,
    Signature: sign('sha256', Buffer.from([e.EndpointRef, e.Timestamp, e.Id, e.Data].join('\n')), key).toString('base64'),
  });
  const envelope = (packets: { Timestamp: number; TerminalId: string; Value: string }[]) =>
    signed({
      EndpointRef: 'ksnb8GB_TuGj:__jLfs2BQJ2d',
      Timestamp: Math.floor(Date.now() / 1000), // when Myriota sent it (the packets carry their own times)
      Data: JSON.stringify({ Packets: packets }),
      Id: randomUUID(),
      CertificateUrl: 'https://security.myriota.com/data-test.crt',
    });

  beforeAll(async () => {
    s = await startTestServer(driver, { MYRIOTA_SIGNATURE: 'verify', MYRIOTA_CERTIFICATE_DIR: CERTIFICATES });
    org = await makeOrg(s.ctx.db);
    const [manager, member, stranger] = [await makeUser(s.ctx.db), await makeUser(s.ctx.db), await makeUser(s.ctx.db)];
    await addMember(s.ctx.db, org.id, manager.id, 2);
    await addMember(s.ctx.db, org.id, member.id, 1);
    [managerToken, memberToken, strangerToken] = await Promise.all([manager, member, stranger].map((u) => s.tokenFor(u.id)));
    const res = await s.api(`/organisations/${org.id}/network-integrations`, { token: managerToken });
    expect(res.status).toBe(200);
    secrets = (await res.json()) as NetworkIntegrations;
  });
  afterAll(() => s?.close());

  /** A member's browser subscribed to the organisation's live topics for the length of `run`. */
  async function asLiveSubscriber(run: (inbox: ReturnType<typeof collect>) => Promise<void>) {
    const user = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, user.id, 1);
    const browser = await connectWs(s, await s.tokenFor(user.id));
    try {
      const inbox = collect(browser);
      await browser.subscribeAsync(`orgs/${org.id}/#`);
      await run(inbox);
    } finally {
      await browser.endAsync();
    }
  }

  it('shows managers the callback URLs and secrets; members get 403, strangers 404', async () => {
    expect(secrets.sigfox).toMatchObject({ callbackUrl: `${s.url}/ingest/sigfox`, secretHeader: 'X-Tidewatch-Secret' });
    expect(secrets.myriota.urlWithSecret).toBe(`${s.url}/ingest/myriota/${secrets.myriota.secret}`);
    expect(secrets.sigfox.secret).not.toBe(secrets.myriota.secret);
    // the same secrets on a second read
    expect(await (await s.api(`/organisations/${org.id}/network-integrations`, { token: managerToken })).json()).toEqual(secrets);
    expect((await s.api(`/organisations/${org.id}/network-integrations`, { token: memberToken })).status).toBe(403);
    expect((await s.api(`/organisations/${org.id}/network-integrations/sigfox/regenerate`, { method: 'POST', token: memberToken })).status).toBe(403);
    expect((await s.api(`/organisations/${org.id}/network-integrations`, { token: strangerToken })).status).toBe(404);
  });

  it('Sigfox: the right secret stores the frame\'s measurements and they reach a live subscriber', async () => {
    const sensor = await makeSensor(s.ctx.db, org.id, { radio: 'sigfox', serial: '1A2B3C' });
    await asLiveSubscriber(async (inbox) => {
      const res = await sigfox(callback('1a2b3c', T, frame([1200.5, 1210, null], { error: 'E3', battery: 77 })));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ stored: 2, duplicates: 0 });
      const rows = await s.ctx.db.query('SELECT time, raw_distance FROM measurements WHERE sensor_id = $1 ORDER BY time', [sensor.id]);
      expect(rows).toEqual([
        { time: T * 1000 - 20 * 60_000, raw_distance: 1200.5 },
        { time: T * 1000 - 10 * 60_000, raw_distance: 1210 },
      ]);
      const latest = (await s.ctx.db.query<{ latest_data: Record<string, unknown> }>('SELECT latest_data FROM sensors WHERE id = $1', [sensor.id]))[0].latest_data;
      expect(latest).toMatchObject({ battery: 77, signalLevel: -118, linkQuality: 'GOOD', lastMeasurementError: { code: 'E3', time: T * 1000 } });
      const live = await inbox.next((m) => m.topic === `orgs/${org.id}/sensors/${sensor.id}/measurements`);
      expect(live.body).toMatchObject({ serial: '1A2B3C', measurements: [{ time: T * 1000 - 20 * 60_000, rawDistance: 1200.5 }, { time: T * 1000 - 10 * 60_000, rawDistance: 1210 }] });
      // Sigfox's retry, or the same frame through another base station: stored once
      const again = await sigfox(callback('1a2b3c', T, frame([1200.5, 1210, null], { error: 'E3', battery: 77 }), { duplicate: 'true' }));
      expect(await again.json()).toEqual({ stored: 0, duplicates: 2 });
      expect(await count(sensor.id)).toBe(2);
    });
  });

  it('Sigfox: a wrong or missing secret is 401 and stores nothing; a malformed body or frame is 400 with a reason and stores nothing', async () => {
    const sensor = await makeSensor(s.ctx.db, org.id, { radio: 'sigfox', serial: '2B3C4D' });
    const body = callback('2B3C4D', T, frame([900, 901, 902]));
    for (const secret of [null, '', 'wrong', secrets.myriota.secret]) {
      const res = await sigfox(body, secret);
      expect([secret, res.status]).toEqual([secret, 401]);
      expect(await res.json()).toEqual({ code: 'INVALID_NETWORK_SECRET', message: 'Unknown or missing callback secret.' });
    }
    const bad: [unknown, string, RegExp][] = [
      ['{"device":', 'INVALID_JSON', /not valid JSON/],
      [{ ...body, device: 'not-hex!' }, 'INVALID_CALLBACK', /^Invalid Sigfox callback: device: /],
      [{ ...body, time: 'yesterday' }, 'INVALID_CALLBACK', /^Invalid Sigfox callback: time: /],
      [{ ...body, data: 'ABCD' }, 'INVALID_FRAME', /24 hexadecimal characters/],
      [{ ...body, data: `C0${frame([1, 2, 3]).slice(2)}` }, 'INVALID_FRAME', /Unknown Sigfox frame version 3/],
      [{ ...body, data: `00${'FF'}00${'FFFFFF'.repeat(3)}` }, 'INVALID_FRAME', /minutes between measurements/],
    ];
    for (const [b, code, message] of bad) {
      const res = await sigfox(b);
      expect(res.status).toBe(400);
      const got = (await res.json()) as { code: string; message: string };
      expect(got.code).toBe(code);
      expect(got.message).toMatch(message);
    }
    // a device of another organisation (or none) is not this secret's to report
    const elsewhere = await makeSensor(s.ctx.db, (await makeOrg(s.ctx.db)).id, { radio: 'sigfox', serial: '3C4D5E' });
    const res = await sigfox(callback('3C4D5E', T, frame([1, 2, 3])));
    expect(res.status).toBe(404);
    // a sensor of another radio named by a Sigfox callback (a misconfigured device type): refused, and its queued task not handed out
    const cellular = await makeSensor(s.ctx.db, org.id, { radio: 'cellular', serial: '3C4D5F' });
    const queued = randomUUID();
    await s.ctx.db.query(`INSERT INTO downlink_tasks (id, sensor_id, type, params, created_at) VALUES ($1, $2, 'FirmwareDownload', '{}'::jsonb, $3)`, [queued, cellular.id, T * 1000]);
    for (const more of [{}, { ack: 'true' }]) {
      const wrong = await sigfox(callback('3C4D5F', T, frame([1, 2, 3]), more));
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({ code: 'WRONG_NETWORK', message: 'Sensor 3C4D5F is not a Sigfox sensor (its radio is cellular).' });
    }
    expect((await s.ctx.db.query<{ status: string }>('SELECT status FROM downlink_tasks WHERE id = $1', [queued]))[0].status).toBe('Created');
    expect(await count(cellular.id)).toBe(0);
    expect(await count(sensor.id)).toBe(0);
    expect(await count(elsewhere.id)).toBe(0);
  });

  it('Sigfox bidirectional: the callback collects the queued task as an 8-byte downlink (Dispatched), the device\'s next frame reports it (Success)', async () => {
    const sensor = await makeSensor(s.ctx.db, org.id, { radio: 'sigfox', serial: '4D5E6F' });
    const taskId = randomUUID();
    const params = { measurementInterval: 15, measurementsPerTransmission: 4, maxGradient: 250.5, deltaCompressionEnabled: true };
    await s.ctx.db.query(`INSERT INTO downlink_tasks (id, sensor_id, type, params, created_at) VALUES ($1, $2, 'SensorConfig', $3, $4)`, [taskId, sensor.id, JSON.stringify(params), T * 1000 - 1000]);
    const status = async () => (await s.ctx.db.query<{ status: string }>('SELECT status FROM downlink_tasks WHERE id = $1', [taskId]))[0].status;
    // a plain uplink does not collect it: the device is not listening
    expect((await sigfox(callback('4D5E6F', T, frame([1, 2, 3])))).status).toBe(200);
    expect(await status()).toBe('Created');
    // the Sigfox backend waits 10 seconds for any callback's answer (then retries, and the device's listening window is gone)
    const asked = Date.now();
    const res = await sigfox(callback('4D5E6F', T + 600, frame([4, 5, 6]), { ack: 'true' }));
    expect(Date.now() - asked).toBeLessThan(SIGFOX_ANSWER_LIMIT_MS);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const answer = (await res.json()) as Record<string, { downlinkData: string }>;
    expect(Object.keys(answer)).toEqual(['4D5E6F']);
    expect(answer['4D5E6F'].downlinkData).toMatch(/^[0-9A-F]{16}$/);
    expect(decodeSigfoxDownlink(answer['4D5E6F'].downlinkData)).toEqual({ type: 'SensorConfig', params });
    expect(await status()).toBe('Dispatched');
    // Sigfox retries the bidirectional callback: the same downlink again, still Dispatched
    const retry = await sigfox(callback('4D5E6F', T + 600, frame([4, 5, 6]), { ack: true }));
    expect(await retry.json()).toEqual(answer);
    // the device applied it and says so in its next frame; asking again, it gets nothing more (204)
    const report = await sigfox(callback('4D5E6F', T + 1200, frame([7, 8, 9], { report: { ok: true } }), { ack: 'true' }));
    expect(report.status).toBe(204);
    expect(await status()).toBe('Success');
    const config = (await s.ctx.db.query<{ config: Record<string, unknown> }>('SELECT config FROM sensors WHERE id = $1', [sensor.id]))[0].config;
    expect(config).toMatchObject({ measurementInterval: 15, transmissionInterval: 60, deltaCompressionEnabled: true });
  });

  it('Sigfox: the same frame through several base stations at once is stored once; concurrent bidirectional callbacks hand out one task, the same to each', async () => {
    const sensor = await makeSensor(s.ctx.db, org.id, { radio: 'sigfox', serial: '708192' });
    const data = frame([500, 501, 502]);
    const answers = await Promise.all(['false', 'true', 'true', 'true'].map((duplicate) => sigfox(callback('708192', T, data, { duplicate, station: randomUUID().slice(0, 4) }))));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const counts = (await Promise.all(answers.map((r) => r.json()))) as { stored: number; duplicates: number }[];
    expect(counts.reduce((n, c) => n + c.stored, 0)).toBe(3);
    expect(counts.reduce((n, c) => n + c.duplicates, 0)).toBe(9);
    expect(await count(sensor.id)).toBe(3);
    const params = (n: number) => ({ measurementInterval: n, measurementsPerTransmission: 2, maxGradient: 100, deltaCompressionEnabled: false });
    const [first, second] = [randomUUID(), randomUUID()];
    for (const [id, n] of [[first, 20], [second, 30]] as const) {
      await s.ctx.db.query(`INSERT INTO downlink_tasks (id, sensor_id, type, params, created_at) VALUES ($1, $2, 'SensorConfig', $3, $4)`, [id, sensor.id, JSON.stringify(params(n)), T * 1000 + n]);
    }
    // Sigfox retries a callback it thinks failed while the first may still be answered: both get the oldest task
    const bidir = await Promise.all([0, 1, 2].map(() => sigfox(callback('708192', T + 1800, frame([503, 504, 505]), { ack: 'true' }))));
    const downlinks = await Promise.all(bidir.map(async (r) => (await r.json()) as Record<string, { downlinkData: string }>));
    for (const d of downlinks) expect(decodeSigfoxDownlink(d['708192'].downlinkData)).toEqual({ type: 'SensorConfig', params: params(20) });
    const status = async (id: string) => (await s.ctx.db.query<{ status: string }>('SELECT status FROM downlink_tasks WHERE id = $1', [id]))[0].status;
    expect([await status(first), await status(second)]).toEqual(['Dispatched', 'Created']);
    expect(await count(sensor.id)).toBe(6);
  });

  it('Sigfox: a downlink handed out counts against the budget of 4 a day: the sensor records the request, and the next queued task is not expected for 6 hours', async () => {
    const sensor = await makeSensor(s.ctx.db, org.id, { radio: 'sigfox', serial: '6F7081' });
    // firmware that reports on schedule: without the budget, the estimate would be the next transmission (30 minutes)
    await s.ctx.db.query(`UPDATE sensors SET latest_boot_info = '{"firmwareVersion":131}'::jsonb WHERE id = $1`, [sensor.id]);
    const now = Date.now();
    const params = { measurementInterval: 10, measurementsPerTransmission: 3, maxGradient: 100, deltaCompressionEnabled: false };
    const [first, second] = [randomUUID(), randomUUID()];
    for (const [id, at] of [[first, now - 2000], [second, now - 1000]] as const) {
      await s.ctx.db.query(`INSERT INTO downlink_tasks (id, sensor_id, type, params, created_at) VALUES ($1, $2, 'SensorConfig', $3, $4)`, [id, sensor.id, JSON.stringify(params), at]);
    }
    const before = Date.now();
    const res = await sigfox(callback('6F7081', Math.floor(now / 1000), frame([300, 301, 302]), { ack: 'true' }));
    const after = Date.now();
    expect(decodeSigfoxDownlink(((await res.json()) as Record<string, { downlinkData: string }>)['6F7081'].downlinkData)).toEqual({ type: 'SensorConfig', params });
    const status = async (id: string) => (await s.ctx.db.query<{ status: string }>('SELECT status FROM downlink_tasks WHERE id = $1', [id]))[0].status;
    expect([await status(first), await status(second)]).toEqual(['Dispatched', 'Created']);
    // the sensor as the remote-task screen reads it
    const got = await s.api(`/organisations/${org.id}/sensors/${sensor.id}`, { token: memberToken });
    expect(got.status).toBe(200);
    const record = ((await got.json()) as { sensor: EstimateSensor }).sensor;
    const requested = record.latestData?.lastDownlinkRequestAt;
    expect(requested).toBeGreaterThanOrEqual(before);
    expect(requested).toBeLessThanOrEqual(after);
    const at = estimateApplyAt(record, { createdAt: now - 1000 }, 0, after);
    expect(at).toBeGreaterThanOrEqual(requested! + SIGFOX_DOWNLINK_GAP_MS);
    // the same sensor on a radio without the budget: expected with its next transmission
    expect(estimateApplyAt({ ...record, radio: { type: 'cellular' } }, { createdAt: now - 1000 }, 0, after)).toBeLessThan(requested! + 60 * 60_000);
  });

  it('Myriota: the right secret and Myriota\'s signature store the packets and they reach a live subscriber', async () => {
    const sensor = await makeSensor(s.ctx.db, org.id, { radio: 'myriota', serial: 'C0FFEE' });
    await asLiveSubscriber(async (inbox) => {
      const ms = T * 1000 + 456;
      const res = await myriota(envelope([{ Timestamp: ms, TerminalId: '00c0ffee00', Value: encodeMyriotaFrame({ serial: 'C0FFEE', battery: 55, spacingMinutes: 60, distances: [null, null, 2100, 2101.25] }) }]));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ stored: 2, duplicates: 0 });
      expect(await s.ctx.db.query('SELECT time, raw_distance FROM measurements WHERE sensor_id = $1 ORDER BY time', [sensor.id])).toEqual([
        { time: ms - 60 * 60_000, raw_distance: 2100 },
        { time: ms, raw_distance: 2101.25 },
      ]);
      const latest = (await s.ctx.db.query<{ latest_data: Record<string, unknown> }>('SELECT latest_data FROM sensors WHERE id = $1', [sensor.id]))[0].latest_data;
      expect(latest).toMatchObject({ battery: 55 });
      const live = await inbox.next((m) => m.topic === `orgs/${org.id}/sensors/${sensor.id}/measurements`);
      expect(live.body).toMatchObject({ serial: 'C0FFEE', measurements: [{ time: ms - 60 * 60_000, rawDistance: 2100 }, { time: ms, rawDistance: 2101.25 }] });
    });
  });

  it('Myriota: the destination envelope stores every packet (secret in the path or the header), a repeat once; wrong secret 401, malformed 400, nothing stored', async () => {
    const a = await makeSensor(s.ctx.db, org.id, { radio: 'myriota', serial: 'ABCDEF' });
    const b = await makeSensor(s.ctx.db, org.id, { radio: 'myriota', serial: '0A1B2C3D' });
    const wifi = await makeSensor(s.ctx.db, org.id, { radio: 'wifi' });
    const ms = T * 1000 + 123;
    const packets = [
      { Timestamp: ms, TerminalId: '0001020304', Value: encodeMyriotaFrame({ serial: 'ABCDEF', battery: 66, spacingMinutes: 60, distances: [null, 1500, 1510, 1520] }) },
      { Timestamp: ms, TerminalId: '0001020305', Value: encodeMyriotaFrame({ serial: '0A1B2C3D', spacingMinutes: 30, distances: [800, 801, 802, 803] }) },
    ];
    for (const [path, headers] of [['', {}], ['/wrong', {}], ['', { 'X-Tidewatch-Secret': secrets.sigfox.secret }]] as const) {
      const res = await myriota(envelope(packets), path, headers);
      expect(res.status).toBe(401);
    }
    const malformed: [unknown, number, string, RegExp][] = [
      [signed({ ...envelope(packets), Data: 'not json' }), 400, 'INVALID_CALLBACK', /Data: is not JSON text/],
      [{ ...envelope(packets), Data: 7 }, 400, 'INVALID_CALLBACK', /^Invalid Myriota message: Data: /],
      [signed({ ...envelope(packets), Data: JSON.stringify({ Packets: [] }) }), 400, 'INVALID_CALLBACK', /^Invalid Myriota message Data: Packets: /],
      [signed({ ...envelope(packets), Data: JSON.stringify({ Packets: [{ ...packets[0], Timestamp: 'soon' }] }) }), 400, 'INVALID_CALLBACK', /^Invalid Myriota message Data: Packets.0.Timestamp: /],
      [envelope([packets[0], { ...packets[1], Value: '00' }]), 400, 'INVALID_FRAME', /^Packet 1: The Myriota frame must be 40 hexadecimal characters/],
      [envelope([packets[0], { ...packets[1], Value: `40${packets[1].Value.slice(2)}` }]), 400, 'INVALID_FRAME', /^Packet 1: Unknown Myriota frame version 1/],
      // one packet of a sensor this organisation does not have, or of one on another radio: none of the message is stored
      [envelope([packets[0], { ...packets[1], Value: encodeMyriotaFrame({ serial: 'FFFFFF', spacingMinutes: 1, distances: [1, 2, 3, 4] }) }]), 404, 'UNKNOWN_DEVICE', /No sensor of this organisation has the serial FFFFFF/],
      [envelope([packets[0], { ...packets[1], Value: encodeMyriotaFrame({ serial: wifi.serial, spacingMinutes: 1, distances: [1, 2, 3, 4] }) }]), 400, 'WRONG_NETWORK', /^Sensor [0-9A-F]{8} is not a Myriota sensor \(its radio is wifi\)\.$/],
    ];
    for (const [body, status, code, message] of malformed) {
      const res = await myriota(body);
      const got = (await res.json()) as { code: string; message: string };
      expect([res.status, got.code], got.message).toEqual([status, code]);
      expect(got.message).toMatch(message);
    }
    expect(await count(a.id)).toBe(0);
    expect(await count(b.id)).toBe(0);
    expect(await count(wifi.id)).toBe(0);
    const ok = await myriota(envelope(packets));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ stored: 7, duplicates: 0 });
    expect(await s.ctx.db.query('SELECT time, raw_distance FROM measurements WHERE sensor_id = $1 ORDER BY time', [a.id])).toEqual([
      { time: ms - 120 * 60_000, raw_distance: 1500 },
      { time: ms - 60 * 60_000, raw_distance: 1510 },
      { time: ms, raw_distance: 1520 },
    ]);
    // the same packets again, with the secret in the header this time: stored once
    const again = await myriota(envelope(packets), '', { 'X-Tidewatch-Secret': secrets.myriota.secret });
    expect(await again.json()).toEqual({ stored: 0, duplicates: 7 });
  });

  it("Myriota: a message without Myriota's signature is refused with 401 and its reason, nothing stored: tampered, unsigned, another issuer's certificate, a certificate from elsewhere, expired at the message's time", async () => {
    const sensor = await makeSensor(s.ctx.db, org.id, { radio: 'myriota', serial: 'BCDEF0' });
    const packets = [{ Timestamp: T * 1000, TerminalId: '0001020306', Value: encodeMyriotaFrame({ serial: 'BCDEF0', spacingMinutes: 60, distances: [1, 2, 3, 4] }) }];
    const good = envelope(packets);
    const refusals: [unknown, RegExp][] = [
      [{ ...good, Data: JSON.stringify({ Packets: [{ ...packets[0], Value: encodeMyriotaFrame({ serial: 'BCDEF0', spacingMinutes: 60, distances: [9, 9, 9, 9] }) }] }) }, /does not match the message/],
      [{ ...good, Signature: undefined }, /Signature and CertificateUrl are required/],
      [{ ...good, CertificateUrl: 'https://security.myriota.com/impostor.crt' }, /not Myriota's/],
      [{ ...good, CertificateUrl: 'https://security.myriota.com.example.org/data-test.crt' }, /must be on https:\/\/security.myriota.com\//],
      [{ ...good, CertificateUrl: 'http://security.myriota.com/data-test.crt' }, /must be on https:/],
      [signed({ ...good, Timestamp: 1_000_000_000 }), /not valid at 2001-09-09/],
    ];
    for (const [body, reason] of refusals) {
      const res = await myriota(body);
      expect(res.status).toBe(401);
      const answer = (await res.json()) as { code: string; message: string };
      expect(answer.code).toBe('INVALID_SIGNATURE');
      expect(answer.message, JSON.stringify(body).slice(0, 80)).toMatch(reason);
    }
    expect(await count(sensor.id)).toBe(0);
    const ok = await myriota(good);
    expect(ok.status).toBe(200);
    expect(await count(sensor.id)).toBe(4);
  });

  it('regenerating a secret refuses the old one at once and takes the new one', async () => {
    const sensor = await makeSensor(s.ctx.db, org.id, { radio: 'sigfox', serial: '5E6F70' });
    const old = secrets.sigfox.secret;
    const res = await s.api(`/organisations/${org.id}/network-integrations/sigfox/regenerate`, { method: 'POST', token: managerToken });
    expect(res.status).toBe(200);
    const next = (await res.json()) as NetworkIntegrations;
    expect(next.sigfox.secret).not.toBe(old);
    expect(next.myriota.secret).toBe(secrets.myriota.secret);
    expect((await sigfox(callback('5E6F70', T, frame([1, 2, 3])), old)).status).toBe(401);
    expect(await count(sensor.id)).toBe(0);
    expect((await sigfox(callback('5E6F70', T, frame([1, 2, 3])), next.sigfox.secret)).status).toBe(200);
    expect(await count(sensor.id)).toBe(3);
    secrets = next;
  });
});
