import { describe, expect, it } from 'vitest';
import type mqtt from 'mqtt';
import { loadConfig } from '../../server/config';
import { startServer, type RunningServer } from '../../server/start';
import { issueTokens } from '../../server/identity/tokens';
import { serviceUrl } from './services';
import { emptyPostgres } from './cluster-helpers';
import { addMember, makeOrg, makeUser } from './fixtures';
import { connectWs } from './live-helpers';

const pgUrl = serviceUrl('postgres');
/** The brokers' periodic membership re-check never runs in these tests: only the cross-process notice can close. */
const NEVER = 2 ** 31 - 1;

const closed = (c: mqtt.MqttClient) => new Promise<void>((resolve) => (c.connected ? c.once('close', () => resolve()) : resolve()));

describe.skipIf(!pgUrl)('a membership ended on one process closes the live connections on every process (issue 17)', () => {
  it('removed on A: the member\'s browsers on A and B close at once; made meter reader on B: closed on A too; other members stay', { timeout: 60_000 }, async () => {
    const store = await emptyPostgres();
    const config = loadConfig({ DATABASE_URL: store.url, PUBLIC_URL: 'https://tidewatch.example', PORT: '0', HOST: '127.0.0.1', SIMULATOR: 'false', LOG_LEVEL: 'warn' });
    const servers: RunningServer[] = await Promise.all([0, 1].map(() => startServer(config, { background: false, membershipRecheckMs: NEVER })));
    const [a, b] = servers;
    const browsers: mqtt.MqttClient[] = [];
    try {
      const db = a.ctx.db;
      const org = await makeOrg(db, { features: { meterReading: true } });
      const users = { owner: await makeUser(db), gone: await makeUser(db), reader: await makeUser(db), stays: await makeUser(db) };
      await addMember(db, org.id, users.owner.id, 3);
      for (const k of ['gone', 'reader', 'stays'] as const) await addMember(db, org.id, users[k].id, 1);
      const token = async (u: { id: string; email: string }) =>
        (await issueTokens(db, a.ctx.key, a.ctx.tokens, { id: u.id, email: u.email, name: 'Test User', email_verified: true, is_site_admin: false })).IdToken;
      const tokens = { owner: await token(users.owner), gone: await token(users.gone), reader: await token(users.reader), stays: await token(users.stays) };
      // each member has a browser on each process, subscribed to the organisation
      const open = async (who: 'gone' | 'reader' | 'stays') => {
        const pair = [await connectWs(a, tokens[who]), await connectWs(b, tokens[who])];
        for (const c of pair) expect((await c.subscribeAsync(`orgs/${org.id}/#`))[0].qos).toBe(0);
        browsers.push(...pair);
        return pair;
      };
      const gone = await open('gone');
      const reader = await open('reader');
      const stays = await open('stays');

      const call = (s: RunningServer, method: string, path: string, body: unknown) =>
        fetch(`${s.url}/api${path}`, { method, headers: { Authorization: tokens.owner, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const removed = await call(a, 'DELETE', `/organisations/${org.id}/members/${users.gone.id}`, { cognitoIdentityId: users.gone.id });
      expect(removed.status, await removed.clone().text()).toBe(200);
      await Promise.all(gone.map(closed)); // B's too: its re-check never runs, so the notice closed it
      expect(gone.map((c) => c.connected)).toEqual([false, false]);

      const demoted = await call(b, 'PATCH', `/organisations/${org.id}/members/${users.reader.id}`, { cognitoIdentityId: users.reader.id, role: 4 });
      expect(demoted.status, await demoted.clone().text()).toBe(200);
      await Promise.all(reader.map(closed));

      // the other member's browsers on both processes are untouched; each process heard both notices
      expect(stays.map((c) => c.connected)).toEqual([true, true]);
      // a reconnect is still allowed to sign in, but the organisation's topics are refused on either process
      for (const s of [a, b]) {
        const again = await connectWs(s, tokens.gone);
        browsers.push(again);
        await expect(again.subscribeAsync(`orgs/${org.id}/#`)).rejects.toThrow(/Subscribe error/);
      }
    } finally {
      await Promise.all(browsers.map((c) => c.endAsync().catch(() => {})));
      await Promise.all(servers.map((s) => s.stop()));
      await store.drop();
    }
  });
});
