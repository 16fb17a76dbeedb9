import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { parser, type Packet } from 'mqtt-packet';

/**
 * A TCP relay in front of a real broker that records every MQTT 5 packet it passes, each way and
 * in order: what the broker received from a client (`from: 'client'`) and what it sent it.
 */
export async function startMqttTap(brokerUrl: string) {
  const broker = new URL(brokerUrl);
  const packets: { from: 'client' | 'broker'; packet: Packet }[] = [];
  const sockets = new Set<Socket>();
  const recorder = (from: 'client' | 'broker') => {
    const p = parser({ protocolVersion: 5 });
    p.on('packet', (packet: Packet) => packets.push({ from, packet }));
    return (b: Buffer) => p.parse(b);
  };
  const server = createServer((client) => {
    const upstream = connect(Number(broker.port) || 1883, broker.hostname);
    const [fromClient, fromBroker] = [recorder('client'), recorder('broker')];
    client.on('data', (b: Buffer) => (fromClient(b), upstream.write(b)));
    upstream.on('data', (b: Buffer) => (fromBroker(b), client.write(b)));
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => (sockets.delete(s), client.destroy(), upstream.destroy()));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    packets,
    /** The packets of one command one way, in order. */
    of<C extends Packet['cmd']>(from: 'client' | 'broker', cmd: C) {
      return packets.filter((p) => p.from === from && p.packet.cmd === cmd).map((p) => p.packet as Extract<Packet, { cmd: C }>);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
