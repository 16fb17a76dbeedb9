import type { AppContext } from '../context';

export interface PeriodicJob {
  /** One pass; a call while a pass runs joins it. Resolves with how many things it changed. */
  runOnce(): Promise<number>;
  start(): PeriodicJob;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` (first after 5 s), one pass at a time: a failed pass is logged
 * as `what` and the next one still comes. Each job makes itself safe in several processes.
 */
export function periodicJob(ctx: AppContext, what: string, pass: () => Promise<number>, intervalMs = 60_000): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const runOnce = () => {
    running ??= pass().finally(() => (running = undefined));
    return running;
  };
  return {
    runOnce,
    start() {
      stopped = false;
      const tick = () =>
        runOnce()
          .catch((err) => ctx.log.error({ err }, `${what} failed`))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, intervalMs);
          });
      timer = setTimeout(tick, 5_000);
      return this;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}
