import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';
import { createDispatcher } from '../../server/delivery/dispatcher';
import { enqueueWebhooks } from '../../server/delivery/alerts';
import { postWebhook } from '../../server/delivery/webhook';
import { checkedLookup, isPublicAddress, type Resolver } from '../../server/delivery/webhook-target';

describe.each(testDrivers)('webhooks never reach the server network by default, on %s (SSRF)', (driver) => {
  let s: TestServer;
  let hits = 0;
  const receiver = createServer((_req, res) => {
    hits++;
    res.writeHead(200).end();
  });

  beforeAll(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    s = await startTestServer(driver); // WEBHOOK_ALLOW_PRIVATE_NETWORKS is false unless set
  });
  afterAll(async () => {
    await s?.close();
    await new Promise((r) => receiver.close(r));
  });

  it('refuses loopback, private and metadata addresses when a webhook is saved, and accepts a public name', async () => {
    const org = await makeOrg(s.ctx.db);
    const owner = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, owner.id, 3);
    const token = await s.tokenFor(owner.id);
    for (const url of ['http://127.0.0.1:5432/x', 'http://localhost:8080/api', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'https://10.0.0.5/hook']) {
      const res = await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token, json: { type: 'webhook', url, headers: [] } });
      expect(res.status, url).toBe(400);
      expect(await res.json()).toEqual({ code: 'WEBHOOK_URL_NOT_ALLOWED', message: 'Webhook URLs must point to a public internet address.' });
    }
    expect((await s.ctx.db.query('SELECT 1 FROM integrations WHERE org_id = $1', [org.id])).length).toBe(0);
    const ok = await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token, json: { type: 'webhook', url: 'https://hooks.example.com/tidewatch', headers: [] } });
    expect(ok.status).toBe(201);
  });

  it('refuses at save the IPv6 forms that reach this machine or private networks, trailing dots and CR/LF in headers (issue 9)', async () => {
    const org = await makeOrg(s.ctx.db);
    const owner = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, owner.id, 3);
    const token = await s.tokenFor(owner.id);
    const save = (url: string, headers: { key: string; value: string }[] = []) =>
      s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token, json: { type: 'webhook', url, headers } });
    for (const url of ['http://[64:ff9b::10.0.0.1]/', 'http://[64:ff9b::7f00:1]/', 'http://[fec0::1]/', 'http://[::127.0.0.1]/', 'http://[::a00:1]/', 'http://[::ffff:7f00:1]/', 'http://[2002:c0a8:101::1]/']) {
      const res = await save(url);
      expect(res.status, url).toBe(400);
      expect(await res.json(), url).toEqual({ code: 'WEBHOOK_URL_NOT_ALLOWED', message: 'Webhook URLs must point to a public internet address.' });
    }
    for (const url of ['http://localhost./x', 'https://hooks.example.com./x']) {
      const res = await save(url);
      expect(res.status, url).toBe(400);
      expect(await res.json(), url).toEqual({ code: 'WEBHOOK_URL_NOT_ALLOWED', message: 'Webhook URLs must not end the host name with a dot.' });
    }
    for (const header of [{ key: 'X-A', value: 'a\r\nX-Injected: 1' }, { key: 'X-A\r\nX-B', value: 'v' }, { key: 'X A', value: 'v' }, { key: 'X-A', value: 'a\nb' }]) {
      const res = await save('https://hooks.example.com/a', [header]);
      expect(res.status, JSON.stringify(header)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_INTEGRATION' });
    }
    expect((await s.ctx.db.query('SELECT 1 FROM integrations WHERE org_id = $1', [org.id])).length).toBe(0);
    expect((await save('https://[64:ff9b::808:808]/hook')).status).toBe(201); // NAT64 of a public address
  });

  it('refuses at save, on create and update, a header the delivery sets itself, naming it, in any letter case (issue 35)', async () => {
    const org = await makeOrg(s.ctx.db);
    const owner = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, owner.id, 3);
    const token = await s.tokenFor(owner.id);
    const url = 'https://hooks.example.com/tidewatch';
    const created = await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token, json: { type: 'webhook', url, headers: [{ key: 'X-Api-Key', value: 'k' }] } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    for (const key of ['Host', 'host', 'Transfer-Encoding', 'CONTENT-LENGTH', 'Connection', 'Content-Type', 'content-type', 'User-Agent', 'USER-AGENT', 'webhook-id', 'Webhook-Signature', 'webhook-timestamp']) {
      const headers = [{ key: 'X-Api-Key', value: 'k' }, { key, value: 'v' }];
      const expected = { code: 'INVALID_INTEGRATION', message: `The ${key} header is set by Tidewatch when it sends the webhook and cannot be changed.` };
      const post = await s.api(`/organisations/${org.id}/integrations`, { method: 'POST', token, json: { type: 'webhook', url, headers } });
      expect(post.status, key).toBe(400);
      expect(await post.json(), key).toEqual(expected);
      const patch = await s.api(`/organisations/${org.id}/integrations/${id}`, { method: 'PATCH', token, json: { type: 'webhook', url, headers } });
      expect(patch.status, key).toBe(400);
      expect(await patch.json(), key).toEqual(expected);
    }
    const rows = await s.ctx.db.query<{ headers: { key: string }[] }>('SELECT headers FROM integrations WHERE org_id = $1', [org.id]);
    expect(rows.map((r) => r.headers.map((h) => h.key))).toEqual([['X-Api-Key']]);
  });

  it('refuses at delivery a target that is internal, and sends it nothing', async () => {
    const org = await makeOrg(s.ctx.db);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    // as if saved before the rule, or reached through a name: straight into the table
    await s.ctx.db.query(`INSERT INTO integrations (id, org_id, type, url, headers, secret, created_at) VALUES (gen_random_uuid(), $1, 'webhook', $2, '[]', 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0', 0)`, [org.id, url]);
    await s.ctx.db.tx((q) => enqueueWebhooks(q, org.id, { type: 'test', organisationId: org.id, notification: null, sensor: null }, Date.now()));
    const dispatcher = createDispatcher(s.ctx);
    await dispatcher.runOnce();
    await dispatcher.stop();
    expect(hits).toBe(0);
    const row = (await s.ctx.db.query<{ status: string; last_error: string }>(`SELECT status, last_error FROM outbox WHERE channel = 'webhook' AND recipient IN (SELECT id::text FROM integrations WHERE org_id = $1)`, [org.id]))[0];
    expect(row).toEqual({ status: 'failed', last_error: 'Webhook URLs must point to a public internet address.' });
  });
});

describe('a webhook connects only to the address that was checked (DNS rebinding, issue 9)', () => {
  it('knows the IPv6 spellings of internal addresses', () => {
    for (const ip of ['64:ff9b::a00:1', '64:ff9b::127.0.0.1', 'fec0::1', '::127.0.0.1', '::ffff:7f00:1', '2002:0a00:0001::1', '64:ff9b:1::1', '2001::1'])
      expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ['64:ff9b::8.8.8.8', '2002:0808:0808::1', '2606:4700:4700::1111']) expect(isPublicAddress(ip), ip).toBe(true);
  });

  it('never connects to 127.0.0.1 when the name answers a public address first and 127.0.0.1 after', async () => {
    let hits = 0;
    const receiver = createServer((_req, res) => {
      hits++;
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as AddressInfo).port;
    const answers: string[] = [];
    // a rebinding name: public to the first question, this machine to every later one
    const rebinding: Resolver = async () => {
      const address = answers.length === 0 ? '203.0.113.7' : '127.0.0.1';
      answers.push(address);
      return [{ address, family: 4 }];
    };
    const connectedTo: string[] = [];
    const lookup = checkedLookup(rebinding, false);
    const spy: typeof lookup = (host, options, callback) =>
      lookup(host, options, (err, address, family) => {
        if (!err) connectedTo.push(...(Array.isArray(address) ? address.map((a) => a.address) : [address]));
        (callback as (e: typeof err, a: typeof address, f?: number) => void)(err, address, family);
      });
    const target = { url: `http://rebind.example:${port}/hook`, headers: [], secret: 'whsec_c2VjcmV0' };
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(postWebhook(target, 'msg_1', '{}', Date.now(), { lookup: spy, timeoutMs: 1500 })).rejects.toThrow();
    }
    await new Promise((r) => receiver.close(r));
    expect(hits).toBe(0);
    expect(connectedTo).not.toContain('127.0.0.1');
    expect(connectedTo).toEqual(['203.0.113.7']);
    expect(answers).toEqual(['203.0.113.7', '127.0.0.1', '127.0.0.1']); // one question per connection, each answer checked
  });

  it('never sends a reserved header from a webhook saved before the rule; its other headers go (issue 35)', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const receiver = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as AddressInfo).port;
    const headers = [
      { key: 'X-Api-Key', value: 'k' },
      { key: 'Host', value: 'internal.example' },
      { key: 'Connection', value: 'keep-alive' },
      { key: 'Webhook-Id', value: 'msg_forged' },
      { key: 'content-length', value: '0' },
      { key: 'Content-Type', value: 'text/plain' },
      { key: 'User-Agent', value: 'curl/8' },
    ];
    await postWebhook({ url: `http://127.0.0.1:${port}/hook`, headers, secret: 'whsec_c2VjcmV0' }, 'msg_1', '{"a":1}', Date.now(), { timeoutMs: 1500 });
    await new Promise((r) => receiver.close(r));
    expect(seen).toHaveLength(1);
    // the signed body's type and the sender's name are the delivery's, whatever the row says
    expect(seen[0]).toMatchObject({ 'x-api-key': 'k', host: `127.0.0.1:${port}`, connection: 'close', 'webhook-id': 'msg_1', 'content-length': '7', 'content-type': 'application/json', 'user-agent': 'Tidewatch-Webhooks/1' });
  });
});
