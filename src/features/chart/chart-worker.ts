import { createDataWorker, type DataWorkerClient } from '../../../workers/data-client';
import { gatewayEndpoint, getIdToken, heldIdToken } from '../../shared/api';

let client: DataWorkerClient | undefined;

/**
 * The tab's one data worker, started on first use: every chart shares its store, so going back
 * to a sensor seen before draws from what is held (within the spec's cache caps).
 */
export function chartWorker(): DataWorkerClient['api'] {
  client ??= createDataWorker({ apiBase: gatewayEndpoint(), getIdToken, heldIdToken });
  return client.api;
}
