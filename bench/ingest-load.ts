// The ingest benchmark's load generator, run as a child process of ingest.bench.ts so that it
// never shares an event loop with the server or the bench. Open loop: uplink i is due at
// start + i / rate whatever happened to the ones before, and its latency counts from that due
// time (no coordinated omission). The mix per sensor, every 40 uplinks: one raises the threshold
// and rapid-change alarms and the next clears them, one carries only an error code (opens
// SENSOR_ERROR) and the next good one closes it; a downlink handed out in an ack is reported
// applied by the sensor's next uplink. Every answer must be 200: anything else is counted.
import { connect, type Socket } from 'node:net';
import mqtt from 'mqtt';
import { RawMqtt } from './mqtt-raw';
import { TRACE_DIR, traceProcess, wall, writeTrace } from './ingest-trace';

export interface LoadJob {
  port: number;
  /**
   * Several server processes (issue 17): sensor s sends to ports[s % ports.length], as a load
   * balancer with per-device affinity would; without it, everything goes to `port`.
   */
  ports?: number[];
  sensors: { serial: string; key: string }[];
  rate: number;
  seconds: number;
  warmupSeconds: number;
  /** Data time of each sensor's first uplink ever; each sensor's uplinks are a minute apart. */
  dataStart: number;
  /** How many uplinks each sensor has sent in earlier runs, so its sequence (and alarm mix) goes on. */
  seq: number[];
  /**
   * Send over an external broker instead of HTTP: QoS 1 to devices/{serial}/uplink, answered by the
   * server's ack on devices/{serial}/ack (published after the commit).
   */
  mqttUrl?: string;
}

export interface LoadResult {
  sent: number;
  /** Acked uplinks due inside the measured window, and their latencies from the due time (ms). */
  counted: number;
  latencies: number[];
  /** Acks received inside the measured window: the rate actually sustained. */
  completedInWindow: number;
  windowMs: number;
  errors: string[];
  stored: number;
  duplicates: number;
  raises: number;
  /**
   * Raises that must also open a rapid-change alarm: the window (the oldest point of the hour
   * before) holds a lower level. Not a sensor's first uplink, and not the second raise of a
   * sensor whose first point was a raise (its window then starts at that raise: no change).
   */
  deltaRaises: number;
  clears: number;
  errorUplinks: number;
  downlinks: string[];
  applied: number;
  /** Uplinks still unanswered when the generator gave up (the server could not keep up). */
  unanswered: number;
  /** Each sensor's count after this run. */
  seq: number[];
}

/** BENCH_INGEST_TIMELINE=1: print the worst ack latency of each 500 ms of due time (where a p99 comes from). */
const TIMELINE = process.env.BENCH_INGEST_TIMELINE === '1';
const PERIOD = 40;
const MQTTJS = process.env.BENCH_INGEST_MQTTJS === '1';
/** Device-side publishing connections (BENCH_INGEST_PUBLISHERS; 2 gave the server more CPU an uplink than 8: larger bursts). */
const PUBLISHERS = Number(process.env.BENCH_INGEST_PUBLISHERS) || 8;
/** The ack of most uplinks, recognised without parsing it. */
const COMMON_ACK = '{"stored":1,"duplicates":0,"downlinks":[]}';

/**
 * HTTP/1.1 keep-alive connections on raw sockets: each request is written as one string, one
 * request in flight per connection (no pipelining), at most `max` connections per port; a request
 * that finds them all busy waits for the first to come free. The answer is read by its
 * Content-Length. Any transport error, a closed connection with a request in flight, or an answer
 * that cannot be read fails that request.
 */
class Connections {
  private idle = new Map<number, Conn[]>();
  private count = new Map<number, number>();
  private queued = new Map<number, [string, (status: number, body: string) => void, (why: string) => void][]>();
  private all = new Set<Conn>();
  constructor(private readonly max: number) {}

  send(port: number, request: string, done: (status: number, body: string) => void, fail: (why: string) => void) {
    const free = this.idle.get(port)?.pop();
    if (free) return free.send(request, done, fail);
    const n = this.count.get(port) ?? 0;
    if (n >= this.max) {
      const q = this.queued.get(port) ?? [];
      this.queued.set(port, q);
      q.push([request, done, fail]);
      return;
    }
    this.count.set(port, n + 1);
    const c = new Conn(port, (conn) => this.release(conn), (conn) => {
      this.all.delete(conn);
      this.count.set(port, (this.count.get(port) ?? 1) - 1);
      const idle = this.idle.get(port);
      if (idle?.includes(conn)) idle.splice(idle.indexOf(conn), 1);
    });
    this.all.add(c);
    c.send(request, done, fail);
  }

  private release(c: Conn) {
    const next = this.queued.get(c.port)?.shift();
    if (next) return c.send(...next);
    const idle = this.idle.get(c.port) ?? [];
    this.idle.set(c.port, idle);
    idle.push(c);
  }

  close() {
    for (const c of this.all) c.socket.destroy();
  }
}

class Conn {
  readonly socket: Socket;
  private buf = '';
  private pending: { done: (status: number, body: string) => void; fail: (why: string) => void } | null = null;
  constructor(
    readonly port: number,
    private readonly free: (c: Conn) => void,
    private readonly gone: (c: Conn) => void,
  ) {
    this.socket = connect({ host: '127.0.0.1', port, noDelay: true });
    this.socket.setEncoding('latin1');
    this.socket.on('data', (d: string) => this.data(d));
    let ended = false;
    const end = (why: string) => {
      if (ended) return;
      ended = true;
      this.gone(this);
      const p = this.pending;
      this.pending = null;
      p?.fail(why);
    };
    this.socket.on('error', (err) => end(err.message));
    this.socket.on('close', () => end('connection closed with a request in flight'));
  }

  send(request: string, done: (status: number, body: string) => void, fail: (why: string) => void) {
    this.pending = { done, fail };
    this.socket.write(request, 'utf8');
  }

  private data(d: string) {
    this.buf += d;
    const headEnd = this.buf.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buf.slice(0, headEnd).toLowerCase();
    const status = Number(head.slice(9, 12));
    const m = /\r\ncontent-length: *(\d+)/.exec(head);
    const p = this.pending;
    if (!m || !p || head.includes('\r\ntransfer-encoding:')) {
      this.pending = null;
      this.socket.destroy();
      p?.fail(`unreadable answer: ${head.slice(0, 200)}`);
      return;
    }
    const len = Number(m[1]);
    if (this.buf.length < headEnd + 4 + len) return;
    // latin1 in, so the body's bytes are kept: decoded as UTF-8 here
    const body = Buffer.from(this.buf.slice(headEnd + 4, headEnd + 4 + len), 'latin1').toString('utf8');
    this.buf = this.buf.slice(headEnd + 4 + len);
    this.pending = null;
    this.free(this);
    p.done(status, body);
  }
}

export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const http = new Connections(256);
  // BENCH_INGEST_TRACE: per uplink [serial/time, due, sent, acked] on the wall clock (ack 0: none)
  const trace = TRACE_DIR ? traceProcess() : null;
  const traced: [string, number, number, number][] = [];
  const toWall = performance.timeOrigin;
  const timeline: number[] = [];
  const r: LoadResult = { sent: 0, counted: 0, latencies: [], completedInWindow: 0, windowMs: job.seconds * 1000, errors: [], stored: 0, duplicates: 0, raises: 0, deltaRaises: 0, clears: 0, errorUplinks: 0, downlinks: [], applied: 0, unanswered: 0, seq: [...job.seq] };
  const pendingApplied = new Map<number, string[]>();
  // MQTT: a few device-side connections publish, one takes every ack; a sensor has at most one
  // uplink in flight (below), so its next ack is that uplink's. The clients are bench/mqtt-raw.ts's
  // (BENCH_INGEST_MQTTJS=1: mqtt.js's, as before 25 November, for comparison)
  type Client = { publish(topic: string, payload: string, done: (err?: string) => void): void; cork(): void; uncork(): void; end(): Promise<void> };
  const publishers: Client[] = [];
  let acker: Client | null = null;
  const onAck = new Map<string, (text: string) => void>();
  const ackMessage = (topic: string, payload: Buffer) => onAck.get(topic.split('/')[1])?.(payload.toString());
  if (job.mqttUrl && MQTTJS) {
    const open = async (clientId: string) => {
      const c = await mqtt.connectAsync(job.mqttUrl!, { clientId, reconnectPeriod: 0, clean: true });
      const client: Client = {
        publish: (topic, payload, done) => c.publish(topic, payload, { qos: 1 }, (err) => done(err ? `MQTT publish: ${err.message}` : undefined)),
        cork() {},
        uncork() {},
        end: () => c.endAsync(),
      };
      return { c, client };
    };
    for (let c = 0; c < PUBLISHERS; c++) publishers.push((await open(`bench-dev-${process.pid}-${c}`)).client);
    const a = await open(`bench-acks-${process.pid}`);
    acker = a.client;
    a.c.on('message', ackMessage);
    await a.c.subscribeAsync('devices/+/ack', { qos: 0 });
  } else if (job.mqttUrl) {
    for (let c = 0; c < PUBLISHERS; c++) publishers.push(await RawMqtt.open(job.mqttUrl, `bench-dev-${process.pid}-${c}`));
    const a = await RawMqtt.open(job.mqttUrl, `bench-acks-${process.pid}`);
    acker = a;
    a.onMessage = ackMessage;
    await a.subscribe('devices/+/ack');
  }
  const n = job.sensors.length;
  // each sensor's request head and the start of its body, written once
  const heads = job.sensors.map((x) => `POST /ingest/uplink HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nx-device-key: ${x.key}\r\ncontent-length: `);
  const prefixes = job.sensors.map((x) => `{"serial":${JSON.stringify(x.serial)},"battery":80,"signalLevel":18,"linkQuality":"GOOD"`);
  const total = Math.round(job.rate * (job.warmupSeconds + job.seconds));
  const warm = Math.round(job.rate * job.warmupSeconds);
  const t0 = performance.now() + 50;
  let outstanding = 0;
  let done!: () => void;
  const finished = new Promise<void>((res) => (done = res));

  // a device sends one uplink at a time: one that falls due while the sensor's previous uplink is
  // unanswered waits for it (its latency still counts from its due time), so a sensor's uplinks
  // reach the server in order and the alarm mix stays what it is meant to be
  const busy = new Set<number>();
  const waiting = new Map<number, number[]>();
  const launch = (i: number) => {
    const s = i % n;
    outstanding++;
    r.sent++;
    if (!busy.has(s)) return transmit(i);
    waiting.set(s, [...(waiting.get(s) ?? []), i]);
  };
  const settled = (s: number) => {
    busy.delete(s);
    const queue = waiting.get(s);
    const nextOne = queue?.shift();
    if (nextOne !== undefined) transmit(nextOne);
    if (--outstanding === 0 && r.sent === total) done();
  };

  const transmit = (i: number) => {
    const s = i % n;
    busy.add(s);
    const applied = pendingApplied.get(s) ?? [];
    pendingApplied.delete(s);
    const k = r.seq[s]++;
    const time = job.dataStart + k * 60_000;
    const phase = (k + s) % PERIOD; // sensors take turns, so the alarms are spread over the run
    const body: Record<string, unknown> = { serial: job.sensors[s].serial, battery: 80, signalLevel: 18, linkQuality: 'GOOD' };
    if (phase === 25) body.errors = [{ time, code: 'E3' }];
    else body.measurements = [{ time, rawDistance: phase === 10 ? 150 : 1000 + ((k * 37 + s * 11) % 400) }];
    if (applied.length) body.appliedTasks = applied.map((id) => ({ id, ok: true }));
    // through the broker the device key travels in the body (docs/device-protocol.md), checked as on HTTP
    const payload = job.mqttUrl ? JSON.stringify({ ...body, deviceKey: job.sensors[s].key }) : '';
    const due = t0 + (i * 1000) / job.rate;
    const row: [string, number, number, number] | null = trace ? [`${job.sensors[s].serial}/${time}`, toWall + due, wall(), 0] : null;
    if (row) traced.push(row);
    const fail = (why: string) => {
      r.errors.push(why);
      settled(s);
    };
    const answered = (text: string) => {
      const end = performance.now();
      if (row) row[3] = toWall + end;
      const ms = end - due;
      if (end >= t0 + job.warmupSeconds * 1000 && end < t0 + (job.warmupSeconds + job.seconds) * 1000) r.completedInWindow++;
      const ack = text === COMMON_ACK ? { stored: 1, duplicates: 0, downlinks: [] } : (JSON.parse(text) as { stored: number; duplicates: number; downlinks: { id: string }[] });
      if (i >= warm) {
        r.counted++;
        r.latencies.push(ms);
      }
      if (TIMELINE) {
        const b = Math.floor((due - t0) / 500);
        timeline[b] = Math.max(timeline[b] ?? 0, ms);
      }
      r.stored += ack.stored;
      r.duplicates += ack.duplicates;
      r.applied += applied.length;
      if (phase === 10) r.raises++;
      if (phase === 10 && k > 0 && !(k <= 60 && s % PERIOD === 10)) r.deltaRaises++;
      if (phase === 11) r.clears++;
      if (phase === 25) r.errorUplinks++;
      for (const d of ack.downlinks) {
        r.downlinks.push(d.id);
        pendingApplied.set(s, [...(pendingApplied.get(s) ?? []), d.id]);
      }
      settled(s);
    };
    if (job.mqttUrl) {
      const serial = job.sensors[s].serial;
      onAck.set(serial, (text) => {
        onAck.delete(serial);
        answered(text);
      });
      publishers[s % publishers.length].publish(`devices/${serial}/uplink`, payload, (err) => {
        if (err) {
          onAck.delete(serial);
          fail(err);
        }
      });
      return;
    }
    // the body as JSON.stringify(body) would write it, built from the sensor's fixed prefix
    let json = prefixes[s];
    if (body.errors) json += `,"errors":[{"time":${time},"code":"E3"}]`;
    else json += `,"measurements":[{"time":${time},"rawDistance":${(body.measurements as { rawDistance: number }[])[0].rawDistance}}]`;
    if (applied.length) json += `,"appliedTasks":${JSON.stringify(body.appliedTasks)}`;
    json += '}';
    const port = job.ports?.length ? job.ports[s % job.ports.length] : job.port;
    http.send(port, heads[s] + Buffer.byteLength(json) + '\r\n\r\n' + json, (status, text) => {
      if (status !== 200) return fail(`HTTP ${status}: ${text.slice(0, 200)}`);
      answered(text);
    }, fail);
  };

  // every millisecond or so, send whatever has fallen due
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      for (const p of publishers) p.cork();
      while (next < total && t0 + (next * 1000) / job.rate <= now) launch(next++);
      for (const p of publishers) p.uncork();
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    setTimeout(tick, 50);
  });
  // an overloaded server is not waited for forever: what is unanswered 30 s after the last was due failed
  const drained = await Promise.race([finished.then(() => true), new Promise<boolean>((res) => setTimeout(() => res(false), 30_000))]);
  if (!drained) {
    r.unanswered = outstanding;
    r.errors.push(`${outstanding} uplinks unanswered 30 s after the last was due`);
  }
  if (trace) {
    trace.stop();
    writeTrace('generator', { gc: trace.gc, lag: trace.lag, uplinks: traced, t0: toWall + t0, warmupSeconds: job.warmupSeconds, seconds: job.seconds });
  }
  if (TIMELINE) process.stderr.write(`  worst ack latency per 500 ms of due time (ms): ${timeline.map((x) => Math.round(x ?? 0)).join(' ')}\n`);
  http.close();
  await Promise.all([...publishers, ...(acker ? [acker] : [])].map((c) => c.end()));
  return r;
}

// as a child process: one job per message, the result sent back
if (process.send) {
  process.on('message', (job: LoadJob) => {
    void runLoad(job).then((res) => process.send!(res));
  });
  process.send('ready');
}
