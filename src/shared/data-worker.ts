import { createDataWorker, type DataWorkerClient } from '../../workers/data-client';
import { gatewayEndpoint, getIdToken, heldIdToken } from './api';
import { takeStartedWorker } from './data-worker-start';

let client: DataWorkerClient | undefined;

/**
 * The tab's one data worker, started on first use: the charts share its measurement store, and
 * the sensors list, map and CSV its copy of the organisation's fleet.
 */
export function dataWorker(): DataWorkerClient['api'] {
  // a worker whose script never loaded (offline on first use) answers nothing: the next use starts another
  if (client?.broken) {
    client.terminate();
    client = undefined;
  }
  client ??= createDataWorker({ apiBase: gatewayEndpoint(), getIdToken, heldIdToken, worker: takeStartedWorker() });
  return client.api;
}

/** The gateway's address as the worker asks it (absolute: a worker resolves against its own script's address). */
export const workerApiBase = () => new URL(gatewayEndpoint(), window.location.href).href.replace(/\/$/, '');

/** The current ID token for a call the worker makes itself (a held one at once, else refreshed). */
export async function workerToken(): Promise<string> {
  return heldIdToken() ?? (await getIdToken()) ?? '';
}
