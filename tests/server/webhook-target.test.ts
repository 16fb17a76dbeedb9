import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';
import { createDispatcher } from '../../server/delivery/dispatcher';
import { enqueueWebhooks } from '../../server/delivery/alerts';

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
