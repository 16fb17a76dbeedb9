// The ingest benchmark's server process: the product's own server (server/start.ts, as main.ts
// starts it), with BENCH_INGEST_MQTT_URL as its MQTT_URL (see `deployed` below). It
// answers 'stats' over IPC with its group-commit batcher's counters (batches, uplinks, largest).
// With BENCH_INGEST_TRACE (bench/ingest-trace.ts) it also records its GC pauses, late event-loop
// turns, batches and each uplink's submit and commit, written out when it is stopped.
import { loadConfig } from '../server/config';
import { startServer } from '../server/start';
import { startExternalIngest } from '../server/broker/external-ingest';
import { batcherFor } from '../server/ingest/batcher';
import type { Pending } from '../server/ingest/batch-write';
import { TRACE_DIR, traceProcess, wall, writeTrace } from './ingest-trace';

const trace = TRACE_DIR ? traceProcess() : null;
const mqttUrl = process.env.BENCH_INGEST_MQTT_URL;
// BENCH_INGEST_CONNECTIONS: another number of ingest connections than INGEST_CONNECTIONS, to compare
const connections = Number(process.env.BENCH_INGEST_CONNECTIONS) || undefined;
// Over a broker, the product as deployed with MQTT_URL: its own ingest connections (in a shared
// group of this process's, so other servers on the broker never take its uplinks) and its live
// messages through the broker and back (relayed to its /mqtt). BENCH_INGEST_LIVE=embedded, or
// BENCH_INGEST_CONNECTIONS, keep live messages in the process (the benchmark before 25 November)
// and start the ingest connections here.
const deployed = mqttUrl && process.env.BENCH_INGEST_LIVE !== 'embedded' && !connections;
const server = await startServer(loadConfig(deployed ? { ...process.env, MQTT_URL: mqttUrl, MQTT_INGEST_GROUP: `bench-${process.pid}` } : process.env));
await server.ready;
const ingest = mqttUrl && !deployed ? startExternalIngest(server.ctx, mqttUrl, { connections, clientIdPrefix: `bench-ingest-${process.pid}`, subscription: `$share/bench-${process.pid}/devices/+/uplink` }) : null;
if (ingest) await ingest.ready;
const batcher = batcherFor(server.ctx.db, server.ctx.log);
/** Per uplink: [serial/time of its first point, submitted (wall ms), committed (wall ms)]. */
const uplinks: [string, number, number][] = [];
/** Per batch: [started (wall ms), committed (wall ms), uplinks]. */
const batches: [number, number, number][] = [];
const others: [number, number, string][] = [];
if (trace) {
  const submit = batcher.submit.bind(batcher);
  batcher.submit = (p: Pending) => {
    const at = wall();
    const key = `${p.up.serial}/${p.up.measurements[0]?.time ?? p.up.errors[0]?.time}`;
    const res = submit(p);
    void res.then(() => uplinks.push([key, at, wall()]), () => {});
    return res;
  };
  // statements outside the batches (the outbox dispatcher, the periodic jobs): [started, ended, its first words]
  const query = server.ctx.db.query.bind(server.ctx.db);
  server.ctx.db.query = (async (sql: string, params?: unknown[]) => {
    const at = wall();
    try {
      return await query(sql, params);
    } finally {
      others.push([at, wall(), sql.replace(/\s+/g, ' ').slice(0, 40)]);
    }
  }) as typeof query;
  const b = batcher as unknown as { write(batch: unknown[], retried?: boolean): Promise<void> };
  const write = b.write.bind(batcher);
  b.write = async (batch, retried) => {
    const at = wall();
    try {
      return await write(batch, retried);
    } finally {
      batches.push([at, wall(), batch.length]);
    }
  };
}
process.on('message', (m) => {
  if (m === 'stats') process.send!({ batches: batcher.batches, uplinks: batcher.uplinks, largest: batcher.largest });
});
process.on('SIGTERM', () => {
  void (async () => {
    if (trace) {
      trace.stop();
      writeTrace('server', { gc: trace.gc, lag: trace.lag, batches, uplinks, others });
    }
    await ingest?.stop();
    await server.stop();
    process.exit(0);
  })();
});
process.send!('ready');
