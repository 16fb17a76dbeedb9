import { appendFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect } from 'vitest';

/**
 * The external services some server suites need: PostgreSQL (TEST_DATABASE_URL) and an MQTT
 * broker (TEST_MQTT_URL). Without the variable those suites skip that part, and say so loudly;
 * with it, each use is written to TEST_SERVICES_LOG so that .ci/run can fail when a suite that
 * needs a service did not use it.
 */
export type Service = 'postgres' | 'mqtt';
const VARIABLE: Record<Service, string> = { postgres: 'TEST_DATABASE_URL', mqtt: 'TEST_MQTT_URL' };

const suite = () => basename(expect.getState().testPath ?? 'unknown');

/** The service's URL, or undefined after a loud warning that the suite's part on it is skipped. */
export function serviceUrl(service: Service): string | undefined {
  const url = process.env[VARIABLE[service]];
  if (!url) {
    const line = `SKIPPED: ${suite()} does not run on ${service === 'postgres' ? 'PostgreSQL' : 'the external MQTT broker'}: ${VARIABLE[service]} is not set`;
    console.warn(`\n${'!'.repeat(line.length)}\n${line}\n${'!'.repeat(line.length)}\n`);
  }
  return url;
}

/** Records that this suite really used the service (read by .ci/run). */
export function markServiceUsed(service: Service): void {
  const log = process.env.TEST_SERVICES_LOG;
  if (log) appendFileSync(log, `${suite()} ${service}\n`);
}
