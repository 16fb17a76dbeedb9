import type { Context } from 'hono';

/**
 * Server-Timing (https://w3c.github.io/server-timing/) for a request: each step's milliseconds,
 * shown by browsers' devtools and read by the fleet benchmark. `mark(name)` closes the step
 * running since the previous mark (or the start); `set(c)` writes the header with a total.
 */
export function serverTimer(now: () => number = () => performance.now()) {
  const start = now();
  let last = start;
  const steps: string[] = [];
  return {
    mark(name: string) {
      const t = now();
      steps.push(`${name};dur=${(t - last).toFixed(1)}`);
      last = t;
    },
    set(c: Context) {
      c.header('Server-Timing', [...steps, `total;dur=${(now() - start).toFixed(1)}`].join(', '));
    },
  };
}
