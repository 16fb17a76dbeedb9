// The ingest benchmark generator's MQTT client: MQTT 3.1.1 on mqtt-packet (mqtt.js's own parser
// and generator) over one TCP socket, with only what the generator needs: QoS 1 PUBLISH with a
// callback on its PUBACK, one QoS 0 subscription, and a clean end. mqtt.js did the same work at
// 0.04 to 0.05 ms of CPU an uplink (its stores, timers and per-packet streams), about a quarter of
// a core at 5,000/s on a 2-core machine the server and PostgreSQL share: load the benchmark
// itself put on what it measures. Any error, or the connection closing, fails what is in flight.
import { connect, type Socket } from 'node:net';
import { generate, parser, type IPublishPacket, type Packet } from 'mqtt-packet';

const v4 = { protocolVersion: 4 };

export class RawMqtt {
  private readonly inFlight = new Map<number, (err?: string) => void>();
  private nextId = 0;
  private closed: string | null = null;
  private waitSuback: (() => void) | null = null;
  private ended: (() => void) | null = null;
  /** Messages of the subscription (QoS 0). */
  onMessage: (topic: string, payload: Buffer) => void = () => {};

  private constructor(private readonly socket: Socket) {}

  static open(url: string, clientId: string): Promise<RawMqtt> {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: u.hostname, port: Number(u.port) || 1883, noDelay: true });
      const c = new RawMqtt(socket);
      const p = parser(v4);
      let connected = false;
      p.on('packet', (packet: Packet) => {
        if (packet.cmd === 'connack') {
          if (packet.returnCode) return reject(new Error(`MQTT CONNACK ${packet.returnCode}`));
          connected = true;
          return resolve(c);
        }
        c.packet(packet);
      });
      p.on('error', (err) => c.fail(`MQTT parse: ${err.message}`));
      socket.on('data', (d) => p.parse(d));
      socket.on('error', (err) => (connected ? c.fail(`MQTT socket: ${err.message}`) : reject(err)));
      socket.on('close', () => {
        c.fail('MQTT connection closed');
        if (!connected) reject(new Error('MQTT connection closed before CONNACK'));
        c.ended?.();
      });
      socket.write(generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clientId, clean: true, keepalive: 60 }, v4));
    });
  }

  private packet(packet: Packet) {
    if (packet.cmd === 'puback') {
      const done = this.inFlight.get(packet.messageId!);
      this.inFlight.delete(packet.messageId!);
      done?.();
    } else if (packet.cmd === 'publish') {
      this.onMessage(packet.topic, packet.payload as Buffer);
    } else if (packet.cmd === 'suback') {
      if (packet.granted.some((g) => typeof g === 'number' && g >= 0x80)) this.fail('MQTT subscription refused');
      this.waitSuback?.();
    }
  }

  private fail(why: string) {
    if (this.closed) return;
    this.closed = why;
    const all = [...this.inFlight.values()];
    this.inFlight.clear();
    for (const done of all) done(why);
    this.socket.destroy();
  }

  /** Writes that follow go out together at uncork() (one syscall for a tick's uplinks). */
  cork() {
    this.socket.cork();
  }
  uncork() {
    this.socket.uncork();
  }

  /** QoS 1: `done` runs on the broker's PUBACK, or with the reason the connection failed. */
  publish(topic: string, payload: string, done: (err?: string) => void) {
    if (this.closed) return done(this.closed);
    let id = this.nextId;
    do id = (id % 0xffff) + 1;
    while (this.inFlight.has(id));
    this.nextId = id;
    this.inFlight.set(id, done);
    const packet: IPublishPacket = { cmd: 'publish', topic, payload, qos: 1, messageId: id, retain: false, dup: false };
    this.socket.write(generate(packet, v4));
  }

  subscribe(filter: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error(this.closed));
      this.waitSuback = resolve;
      this.socket.write(generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: filter, qos: 0 }] }, v4));
    });
  }

  end(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ended = resolve;
      this.closed = 'ended';
      this.socket.end(generate({ cmd: 'disconnect' }, v4));
    });
  }
}
