import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifiesWebhook } from '../webhook-verify';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { sendUplink } from './live-helpers';
import { createDispatcher } from '../../server/delivery/dispatcher';
import { GIVE_UP_AFTER_MS } from '../../server/delivery/backoff';

const T0 = Date.UTC(2026, 3, 1, 8);

describe.each(testDrivers)('delivery on %s (organisation-and-routes.md 3, 7.2, 8)', (driver) => {
  let s: TestServer;
  let clock = T0;
  let org: { id: string };
  let owner: { id: string; email: string };
  let receiver: WebhookReceiver;
  const token = async (id: string) => s.tokenFor(id);

  beforeAll(async () => {
    // the receivers here are on this machine, so private addresses are allowed for this server
    s = await startTestServer(driver, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { now: () => clock });
    org = await makeOrg(s.ctx.db);
    owner = await makeUser(s.ctx.db, { email: 'owner@deliv.test' });
    await addMember(s.ctx.db, org.id, owner.id, 3);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  const outbox = (channel: string, since = 0) =>
    s.ctx.db.query<{ id: string; recipient: string; payload: Record<string, unknown>; status: string; attempts: number }>(
      'SELECT id, recipient, payload, status, attempts FROM outbox WHERE channel = $1 AND created_at >= $2 ORDER BY recipient',
      [channel, since],
    );

  describe('webhook integrations API (managers only, url http(s), up to 5 headers)', () => {
    it('refuses members, bad urls and a sixth header with the spec messages', async () => {
      const member = await makeUser(s.ctx.db);
      await addMember(s.ctx.db, org.id, member.id, 1);
      const body = { type: 'webhook', url: receiver.url, headers: [] };
      expect((await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token: await token(member.id), json: body })).status).toBe(403);
      expect((await s.api(`/organisations/${org.id}/integrations`, { token: await token(member.id) })).status).toBe(403);
      const bad = await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token: await token(owner.id), json: { ...body, url: 'ftp://x.example' } });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'INVALID_INTEGRATION', message: 'Please enter a valid http or https url' });
      const six = Array.from({ length: 6 }, (_, i) => ({ key: `X-K${i}`, value: 'v' }));
      expect((await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token: await token(owner.id), json: { ...body, headers: six } })).status).toBe(400);
      const noValue = await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token: await token(owner.id), json: { ...body, headers: [{ key: 'X-A', value: ' ' }] } });
      expect(await noValue.json()).toMatchObject({ message: 'Value required' });
    });

    it('creates, lists, updates and deletes a webhook with a whsec_ secret', async () => {
      const t = await token(owner.id);
      const created = await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token: t, json: { type: 'webhook', url: 'https://example.com/a', headers: [] } });
      expect(created.status).toBe(201);
      const hook = await created.json();
      expect(hook).toMatchObject({ type: 'webhook', url: 'https://example.com/a', headers: [], secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{32}$/) });
      const patched = await s.api(`/organisations/${org.id}/integrations/${hook.id}`, { method: 'PATCH', token: t, json: { type: 'webhook', url: 'https://example.com/b', headers: [{ key: ' X-Env ', value: ' prod ' }] } });
      expect(await patched.json()).toMatchObject({ url: 'https://example.com/b', headers: [{ key: 'X-Env', value: 'prod' }], secret: hook.secret });
      const list = await (await s.api(`/organisations/${org.id}/integrations?type=webhook`, { token: t })).json();
      expect(list.integrations.map((i: { id: string }) => i.id)).toContain(hook.id);
      expect((await s.api(`/organisations/${org.id}/integrations/${hook.id}`, { method: 'DELETE', token: t })).status).toBe(200);
      expect((await s.api(`/organisations/${org.id}/integrations/${hook.id}`, { method: 'DELETE', token: t })).status).toBe(404);
    });
  });

  it('queues alert email and SMS for exactly the members whose rules ask, within the organisation settings', async () => {
    const o = await makeOrg(s.ctx.db);
    await s.ctx.db.query(
      `UPDATE organisations SET notification_settings = '{"alertAssert":{"email":true,"sms":true},"alertClear":{"email":false,"sms":false}}',
       default_notification_rule = '{"email":true,"sms":false}' WHERE id = $1`,
      [o.id],
    );
    const people = {
      byDefault: await makeUser(s.ctx.db, { email: 'a-default@deliv.test', mobile: '+64211111111' }),
      smsOnly: await makeUser(s.ctx.db, { email: 'b-sms@deliv.test', mobile: '+64212222222' }),
      bothNoMobile: await makeUser(s.ctx.db, { email: 'c-both@deliv.test' }),
      nothing: await makeUser(s.ctx.db, { email: 'd-none@deliv.test', mobile: '+64213333333' }),
      reader: await makeUser(s.ctx.db, { email: 'e-reader@deliv.test', mobile: '+64214444444' }),
    };
    await addMember(s.ctx.db, o.id, people.byDefault.id, 1);
    await addMember(s.ctx.db, o.id, people.smsOnly.id, 2);
    await addMember(s.ctx.db, o.id, people.bothNoMobile.id, 3);
    await addMember(s.ctx.db, o.id, people.nothing.id, 1);
    await addMember(s.ctx.db, o.id, people.reader.id, 4);
    const rule = (id: string, r: object) => s.ctx.db.query('UPDATE memberships SET notification_rule = $3 WHERE org_id = $1 AND user_id = $2', [o.id, id, JSON.stringify(r)]);
    await rule(people.smsOnly.id, { email: false, sms: true });
    await rule(people.bothNoMobile.id, { email: true, sms: true });
    await rule(people.nothing.id, { email: false, sms: false });
    await rule(people.reader.id, { email: true, sms: true });
    const sensor = await makeSensor(s.ctx.db, o.id, { name: 'Tank 9', alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 2000, enabled: true } }, displayInfo: { offsetMeasurement: 3000, referenceLines: [] } });

    clock = T0 + 1000;
    const since = clock;
    await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: T0, rawDistance: 500 }] }); // level 2500
    const emails = await outbox('email', since);
    expect(emails.map((e) => e.recipient)).toEqual(['a-default@deliv.test', 'c-both@deliv.test']);
    expect(emails[0].payload).toMatchObject({ kind: 'alert-triggered', subject: `Alert triggered: Threshold alarm on Tank 9 (${sensor.serial})` });
    // the same sentence the app shows on the notification's card
    expect(String(emails[0].payload.text)).toContain('The level rose above the 2.000 m threshold at 2.500 m.');
    expect((await outbox('sms', since)).map((m) => m.recipient)).toEqual(['+64212222222']);

    // alertClear is off for both channels: clearing queues no email or SMS
    clock += 60_000;
    const since2 = clock;
    await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: T0 + 60_000, rawDistance: 2000 }] });
    expect(await outbox('email', since2)).toEqual([]);
    expect(await outbox('sms', since2)).toEqual([]);

    // without SMTP or an SMS provider the dispatcher keeps them, readable at /dev/mailbox
    await createDispatcher(s.ctx, { now: () => clock }).runOnce();
    expect((await outbox('email', since)).map((e) => e.status)).toEqual(['kept', 'kept']);
    const mailbox = await (await fetch(`${s.url}/dev/mailbox?to=c-both@deliv.test`)).json();
    expect(mailbox.messages[0]).toMatchObject({ channel: 'email', to: 'c-both@deliv.test', status: 'kept', kind: 'alert-triggered' });
  });

  it('POST /organisations/{orgId}/notifications/test is for site admins: an email to the caller and each webhook', async () => {
    const admin = await makeUser(s.ctx.db, { isSiteAdmin: true, email: 'site@deliv.test' });
    await addMember(s.ctx.db, org.id, admin.id, 1);
    expect((await s.api(`/organisations/${org.id}/notifications/test`, { method: 'POST', token: await token(owner.id) })).status).toBe(403);
    const hook = await (
      await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token: await token(owner.id), json: { type: 'webhook', url: receiver.url, headers: [{ key: 'X-Tenant', value: 'river' }] } })
    ).json();
    clock += 1000;
    const since = clock;
    const res = await s.api(`/organisations/${org.id}/notifications/test`, { method: 'POST', token: await token(admin.id) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ email: 'site@deliv.test', webhooks: 1 });
    expect((await outbox('email', since)).map((e) => [e.recipient, e.payload.kind])).toEqual([['site@deliv.test', 'test-notification']]);
    receiver.set('up');
    await createDispatcher(s.ctx, { now: () => clock }).runOnce();
    const got = receiver.received.at(-1)!;
    expect(JSON.parse(got.body)).toMatchObject({ type: 'test', organisationId: org.id, notification: null, sensor: null });
    expect(got.headers['x-tenant']).toBe('river');
    expect(verifiesWebhook(hook.secret, got.headers, got.body)).toBe(true);
    await s.api(`/organisations/${org.id}/integrations/${hook.id}`, { method: 'DELETE', token: await token(owner.id) });
    receiver.received.length = 0;
  });

  it('with the receiver down for a while every notification still arrives, signed, exactly once after de-duplication on webhook-id', async () => {
    const hook = await (
      await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token: await token(owner.id), json: { type: 'webhook', url: receiver.url, headers: [] } })
    ).json();
    const dispatcher = createDispatcher(s.ctx, { now: () => clock });
    const sensors = await Promise.all(
      [1, 2, 3].map((i) => makeSensor(s.ctx.db, org.id, { name: `Hooked ${i}`, alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 2000, enabled: true } }, displayInfo: { offsetMeasurement: 3000, referenceLines: [] } })),
    );
    receiver.set('down');
    const start = clock;
    for (const [i, sn] of sensors.entries()) {
      clock += 1000;
      await sendUplink(s, sn.deviceKey, { serial: sn.serial, measurements: [{ time: start + i, rawDistance: 500 }] }); // opens
      clock += 1000;
      await sendUplink(s, sn.deviceKey, { serial: sn.serial, measurements: [{ time: start + 10_000 + i, rawDistance: 2500 }] }); // closes
    }
    const expected = (await s.ctx.db.query<{ id: string }>('SELECT id FROM notifications WHERE sensor_id = ANY($1::uuid[])', [sensors.map((x) => x.id)])).map((r) => r.id);
    expect(expected).toHaveLength(3);

    // down through the first attempts: 5 s, 30 s, 2 min, 10 min
    for (const step of [0, 5_000, 30_000, 120_000]) {
      clock += step;
      await dispatcher.runOnce();
    }
    expect(receiver.received).toHaveLength(0);
    const rows = await s.ctx.db.query<{ attempts: number; status: string }>(`SELECT attempts, status FROM outbox WHERE channel = 'webhook' AND recipient = $1`, [hook.id]);
    expect(rows.every((r) => r.attempts === 4 && r.status === 'pending')).toBe(true);

    // up, but the first answers are lost (500 after processing): the retry sends the same id again
    receiver.set('flaky');
    clock += 600_000;
    await dispatcher.runOnce();
    receiver.set('up');
    clock += 1_800_000;
    await dispatcher.runOnce();
    clock += 3_600_000;
    expect(await dispatcher.runOnce()).toBe(0); // nothing left due

    expect(receiver.received.length).toBe(12); // 6 events, each delivered twice
    const byId = new Map<string, { type: string; notification: { id: string } }>();
    for (const r of receiver.received) {
      expect(verifiesWebhook(hook.secret, r.headers, r.body)).toBe(true);
      const ts = Number(r.headers['webhook-timestamp']);
      expect(Math.abs(ts * 1000 - clock)).toBeLessThan(3 * 3_600_000); // the attempt's own time, per Standard Webhooks
      const event = JSON.parse(r.body);
      const prev = byId.get(String(r.headers['webhook-id']));
      if (prev) expect(event).toEqual(prev); // the same id always carries the same event
      byId.set(String(r.headers['webhook-id']), event);
    }
    const events = [...byId.values()].map((e) => `${e.type}:${e.notification.id}`).sort();
    expect(events).toEqual(expected.flatMap((id) => [`alert.cleared:${id}`, `alert.triggered:${id}`]).sort());
    const triggered = [...byId.values()].find((e) => e.type === 'alert.triggered')!;
    expect(triggered).toMatchObject({ organisationId: org.id, sensor: { serial: expect.any(String), name: expect.stringMatching(/^Hooked/) }, notification: { meta: { type: 'THRESHOLD_ALARM' } } });
    await s.api(`/organisations/${org.id}/integrations/${hook.id}`, { method: 'DELETE', token: await token(owner.id) });
  });

  it('keeps retrying a receiver that stays down for at least a day, then marks the delivery failed', async () => {
    const hook = await (
      await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token: await token(owner.id), json: { type: 'webhook', url: receiver.url, headers: [] } })
    ).json();
    receiver.set('down');
    clock += 1000;
    const queued = clock;
    await s.api(`/organisations/${org.id}/notifications/test`, { method: 'POST', token: await token((await makeSiteAdmin()).id) });
    const dispatcher = createDispatcher(s.ctx, { now: () => clock });
    const state = async () => (await s.ctx.db.query<{ status: string; attempts: number; next_attempt_at: number }>(`SELECT status, attempts, next_attempt_at FROM outbox WHERE recipient = $1`, [hook.id]))[0];
    let lastAttempt = queued;
    while ((await state()).status === 'pending') {
      clock = Math.max(clock, (await state()).next_attempt_at);
      lastAttempt = clock;
      await dispatcher.runOnce();
    }
    const final = await state();
    expect(final.status).toBe('failed');
    expect(lastAttempt - queued).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(lastAttempt - queued).toBeLessThanOrEqual(GIVE_UP_AFTER_MS);
    expect(final.attempts).toBeGreaterThanOrEqual(25); // 6 quick retries, then hourly
    await s.api(`/organisations/${org.id}/integrations/${hook.id}`, { method: 'DELETE', token: await token(owner.id) });
  });

  it('several dispatchers at once (as in several server processes) deliver each row exactly once', async () => {
    const hook = await (
      await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token: await token(owner.id), json: { type: 'webhook', url: receiver.url, headers: [] } })
    ).json();
    receiver.set('up');
    receiver.received.length = 0;
    const admin = await makeSiteAdmin();
    clock += 60_000;
    for (let i = 0; i < 40; i++) await s.api(`/organisations/${org.id}/notifications/test`, { method: 'POST', token: await token(admin.id) });
    const dispatchers = [1, 2, 3].map(() => createDispatcher(s.ctx, { now: () => clock }));
    const handled = await Promise.all(dispatchers.map((d) => d.runOnce()));
    expect(handled.reduce((a, b) => a + b, 0)).toBe(80); // 40 emails and 40 webhooks, each claimed once
    const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    await s.api(`/organisations/${org.id}/integrations/${hook.id}`, { method: 'DELETE', token: await token(owner.id) });
  });

  it('keeps the due rows of channels with no provider in a few statements, each once, and leaves rows not yet due', async () => {
    // before every other row of this suite, so that only these are due for this dispatcher
    const t = T0 - 86_400_000;
    await s.ctx.db.query(
      `INSERT INTO outbox (id, channel, recipient, payload, next_attempt_at, created_at)
       SELECT gen_random_uuid(), CASE WHEN i % 10 = 0 THEN 'sms' ELSE 'email' END, 'bulk-' || i, '{}'::jsonb, $1::bigint - i, $1::bigint - i FROM generate_series(1, 1100) i`,
      [t],
    );
    await s.ctx.db.query(`INSERT INTO outbox (id, channel, recipient, payload, next_attempt_at, created_at) VALUES (gen_random_uuid(), 'email', 'bulk-later', '{}', $1, $1)`, [t + 1000]);
    let statements = 0;
    const db = new Proxy(s.ctx.db, { get: (target, key) => (key === 'query' ? (sql: string, params?: unknown[]) => (statements++, target.query(sql, params)) : Reflect.get(target, key)) });
    const handled = await createDispatcher({ ...s.ctx, db }, { now: () => t }).runOnce();
    expect(handled).toBe(1100);
    // 500 + 500 + 100 kept, then a claim that finds nothing else due (a statement a row before)
    expect(statements).toBe(4);
    const rows = await s.ctx.db.query<{ status: string; attempts: number; sent_at: number | null; n: number }>(
      `SELECT status, attempts, sent_at, count(*)::int AS n FROM outbox WHERE recipient LIKE 'bulk-%' GROUP BY 1, 2, 3 ORDER BY 1`,
    );
    expect(rows).toEqual([
      { status: 'kept', attempts: 1, sent_at: t, n: 1100 },
      { status: 'pending', attempts: 0, sent_at: null, n: 1 },
    ]);
    // the next pass has nothing to keep
    expect(await createDispatcher(s.ctx, { now: () => t }).runOnce()).toBe(0);
  });

  async function makeSiteAdmin() {
    const u = await makeUser(s.ctx.db, { isSiteAdmin: true });
    await addMember(s.ctx.db, org.id, u.id, 1);
    return u;
  }
});
