import type { AppContext } from './context';
import { startSimulator } from './simulator/fleet';

/** Background jobs of one server process: the simulator (demo), later the scheduler and delivery. */
export function startBackground(ctx: AppContext) {
  const jobs: { stop(): Promise<void> | void }[] = [];
  if (ctx.config.SIMULATOR && ctx.config.SEED_DEMO) jobs.push(startSimulator(ctx));
  return {
    async stop() {
      for (const j of jobs) await j.stop();
    },
  };
}
