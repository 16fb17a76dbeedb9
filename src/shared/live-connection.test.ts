import { describe, expect, it, vi } from 'vitest';
import { createLiveConnection, LIVE_REFUSED, type LiveClient, type LiveClientEvents, type OpenLiveClient } from './live-connection';

/** An MQTT client opened by the test: it answers when told to. */
function fakeClients() {
  const opened: { url: string; token: string; on: LiveClientEvents; client: LiveClient & { ended: boolean; subs: Map<string, (refused: boolean) => void> }; resolve: () => void }[] = [];
  const open: OpenLiveClient = (url, token, on) =>
    new Promise((resolve) => {
      const client = {
        connected: false,
        ended: false,
        subs: new Map<string, (refused: boolean) => void>(),
        subscribe(filter: string, done: (refused: boolean) => void) {
          client.subs.set(filter, done);
        },
        unsubscribe: vi.fn(),
        reconnect: vi.fn(),
        end() {
          client.ended = true;
        },
      };
      opened.push({ url, token, on, client, resolve: () => resolve(client) });
    });
  return { open, opened };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the live connection over an MQTT client opened elsewhere (the page: a worker of its own)', () => {
  it('opens the client with the broker and the token, subscribes on connect, and hands each JSON message to the listeners whose filter matches it, once', async () => {
    const { open, opened } = fakeClients();
    const conn = createLiveConnection({ url: 'wss://host/mqtt', getIdToken: async () => 'tok', open });
    const got: unknown[] = [];
    conn.listen('orgs/o1/sensors/+/measurements', { onMessage: (_t, body) => got.push(body) });
    await settle();
    expect(opened.map((o) => [o.url, o.token])).toEqual([['wss://host/mqtt', 'tok']]);
    opened[0]!.resolve();
    await settle();
    opened[0]!.on.connect();
    expect([...opened[0]!.client.subs.keys()]).toEqual(['orgs/o1/sensors/+/measurements']);
    opened[0]!.on.message('orgs/o1/sensors/s1/measurements', '{"level":1}');
    opened[0]!.on.message('orgs/o1/sensors/s1/measurements', '{"level":1}'); // overlapping subscriptions deliver it twice
    opened[0]!.on.message('orgs/o2/sensors/s1/measurements', '{"level":2}');
    expect(got).toEqual([{ level: 1 }]);
  });

  it("tells a listener the broker refused its filter with the spec's message", async () => {
    const { open, opened } = fakeClients();
    const conn = createLiveConnection({ url: 'wss://host/mqtt', getIdToken: async () => 'tok', open });
    const onError = vi.fn();
    conn.listen('orgs/o1/#', { onMessage: () => {}, onError });
    await settle();
    opened[0]!.resolve();
    await settle();
    opened[0]!.on.connect();
    opened[0]!.client.subs.get('orgs/o1/#')!(true);
    expect(onError).toHaveBeenCalledWith(new Error(LIVE_REFUSED));
  });

  it('ends a client that finishes opening after the connection was closed (a sign-out), and keeps none', async () => {
    const { open, opened } = fakeClients();
    const status = vi.fn();
    const conn = createLiveConnection({ url: 'wss://host/mqtt', getIdToken: async () => 'tok', open, onStatus: status });
    conn.listen('orgs/o1/#', { onMessage: () => {} });
    await settle();
    conn.close();
    opened[0]!.resolve();
    await settle();
    expect(opened[0]!.client.ended).toBe(true);
    // a later listener opens a new client, not the ended one
    conn.listen('orgs/o1/#', { onMessage: () => {} });
    await settle();
    expect(opened).toHaveLength(2);
  });
});
