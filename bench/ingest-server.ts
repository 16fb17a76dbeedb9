// The ingest benchmark's server process: the product's own server (server/start.ts, as main.ts
// starts it), plus, with BENCH_INGEST_MQTT_URL, the external-broker ingest (startExternalIngest)
// on a shared group of its own, so other servers on the same broker never take its uplinks. It
// answers 'stats' over IPC with its group-commit batcher's counters (batches, uplinks, largest).
import { loadConfig } from '../server/config';
import { startServer } from '../server/start';
import { startExternalIngest } from '../server/broker/external-ingest';
import { batcherFor } from '../server/ingest/batcher';

const server = await startServer(loadConfig());
const mqttUrl = process.env.BENCH_INGEST_MQTT_URL;
// BENCH_INGEST_CONNECTIONS: another number of ingest connections than INGEST_CONNECTIONS, to compare
const connections = Number(process.env.BENCH_INGEST_CONNECTIONS) || undefined;
const ingest = mqttUrl ? startExternalIngest(server.ctx, mqttUrl, { connections, clientIdPrefix: `bench-ingest-${process.pid}`, subscription: `$share/bench-${process.pid}/devices/+/uplink` }) : null;
if (ingest) await ingest.ready;
const batcher = batcherFor(server.ctx.db, server.ctx.log);
process.on('message', (m) => {
  if (m === 'stats') process.send!({ batches: batcher.batches, uplinks: batcher.uplinks, largest: batcher.largest });
});
process.on('SIGTERM', () => {
  void (async () => {
    await ingest?.stop();
    await server.stop();
    process.exit(0);
  })();
});
process.send!('ready');
