import { ConfigError, loadConfig } from './config';
import { log } from './log';
import { startServer } from './start';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const started = Date.now();
  const server = await startServer(config);
  log.info({ url: server.url, driver: server.ctx.db.kind, startupMs: Date.now() - started }, `Tidewatch ready at ${server.url}`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  log.fatal({ err }, 'start-up failed');
  process.exit(1);
});
