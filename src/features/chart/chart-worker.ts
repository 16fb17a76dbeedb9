import type { DataWorkerClient } from '../../../workers/data-client';
import { dataWorker } from '../../shared/data-worker';

/**
 * The tab's one data worker (src/shared/data-worker.ts): every chart shares its store, so going
 * back to a sensor seen before draws from what is held (within the spec's cache caps).
 */
export function chartWorker(): DataWorkerClient['api'] {
  return dataWorker();
}
