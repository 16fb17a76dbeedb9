import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { sendUplink } from './live-helpers';
import { createDispatcher } from '../../server/delivery/dispatcher';

/** A minimal SMTP receiver (RFC 5321 happy path) on 127.0.0.1:0 that records each message. */
async function startSmtp() {
  const mails: { from: string; to: string[]; data: string }[] = [];
  const server = createServer((sock: Socket) => {
    let buf = '';
    let mail = { from: '', to: [] as string[], data: '' };
    let inData = false;
    sock.write('220 test ESMTP\r\n');
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push(mail);
            mail = { from: '', to: [], data: '' };
            sock.write('250 queued\r\n');
          } else mail.data += `${line}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'MAIL') mail.from = line.slice(10).trim();
        if (cmd === 'RCPT') mail.to.push(line.slice(8).trim());
        if (cmd === 'DATA') inData = true;
        if (cmd === 'QUIT') sock.end('221 bye\r\n');
        else sock.write(cmd === 'DATA' ? '354 go\r\n' : '250 ok\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, mails, close: () => new Promise((r) => server.close(r)) };
}

describe.each(testDrivers)('email by SMTP_URL and SMS by the TWILIO_* settings, on %s (DESIGN.md: SMTP via SMTP_URL; SMS behind one interface)', (driver) => {
  let s: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let clock = Date.UTC(2026, 4, 1);
  const texts: { to: string; body: string; auth: string }[] = [];
  // a stand-in for Twilio's Messages API, reached through TWILIO_API_URL
  const twilio = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      texts.push({ to: new URLSearchParams(body).get('To') ?? '', body: new URLSearchParams(body).get('Body') ?? '', auth: req.headers.authorization ?? '' });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"sid":"SM1"}');
    });
  });

  beforeAll(async () => {
    smtp = await startSmtp();
    await new Promise<void>((r) => twilio.listen(0, '127.0.0.1', r));
    s = await startTestServer(
      driver,
      {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        PUBLIC_URL: 'https://tidewatch.example',
        MAIL_FROM: 'Tidewatch <alerts@tidewatch.example>',
        TWILIO_ACCOUNT_SID: 'AC12345678',
        TWILIO_AUTH_TOKEN: 'secret-token',
        TWILIO_FROM: '+6421999000',
        TWILIO_API_URL: `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`,
      },
      { now: () => clock },
    );
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
    await new Promise((r) => twilio.close(r));
  });

  it('sends alert email over SMTP with a link to the sensor, and SMS through the configured provider, marking both sent', async () => {
    {
      const org = await makeOrg(s.ctx.db, { name: 'Mail Org' });
      await s.ctx.db.query(`UPDATE organisations SET notification_settings = '{"alertAssert":{"email":true,"sms":true},"alertClear":{"email":true,"sms":false}}' WHERE id = $1`, [org.id]);
      const u = await makeUser(s.ctx.db, { email: 'ops@mail.test', mobile: '+64210000001' });
      await addMember(s.ctx.db, org.id, u.id, 2);
      await s.ctx.db.query(`UPDATE memberships SET notification_rule = '{"email":true,"sms":true}' WHERE user_id = $1`, [u.id]);
      const sensor = await makeSensor(s.ctx.db, org.id, { name: 'Pump Well' });
      await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, battery: 3 });

      const dispatcher = createDispatcher(s.ctx, { now: () => clock }); // no provider passed: it comes from the settings
      await dispatcher.runOnce();
      await dispatcher.stop();

      expect(smtp.mails).toHaveLength(1);
      const mail = smtp.mails[0];
      expect(mail.from).toBe('<alerts@tidewatch.example>');
      expect(mail.to).toEqual(['<ops@mail.test>']);
      expect(mail.data).toContain(`Subject: Alert triggered: Low battery on Pump Well (${sensor.serial})`);
      const body = mail.data.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))); // quoted-printable
      expect(body).toMatch(new RegExp(`View: https://tidewatch.example/org/mail-org-[a-z0-9-]+/sensors/${sensor.serial}\\?start=\\d+&end=\\d+`));
      expect(texts).toEqual([{ to: '+64210000001', body: expect.stringContaining('The battery is low, below 5%.'), auth: `Basic ${Buffer.from('AC12345678:secret-token').toString('base64')}` }]);
      const rows = await s.ctx.db.query<{ channel: string; status: string }>(`SELECT channel, status FROM outbox WHERE recipient IN ('ops@mail.test', '+64210000001') ORDER BY channel`);
      expect(rows).toEqual([
        { channel: 'email', status: 'sent' },
        { channel: 'sms', status: 'sent' },
      ]);
    }
  });

  it('retries email while the SMTP server is unreachable', async () => {
    const org = await makeOrg(s.ctx.db);
    const u = await makeUser(s.ctx.db, { email: 'late@mail.test' });
    await addMember(s.ctx.db, org.id, u.id, 1);
    const sensor = await makeSensor(s.ctx.db, org.id);
    clock += 60_000;
    await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, battery: 2 });
    await smtp.close(); // down: connection refused
    await createDispatcher(s.ctx, { now: () => clock }).runOnce();
    const row = (await s.ctx.db.query<{ status: string; attempts: number; last_error: string; next_attempt_at: number }>(`SELECT status, attempts, last_error, next_attempt_at FROM outbox WHERE recipient = 'late@mail.test'`))[0];
    expect(row).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: clock + 5_000 });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
  });
});
