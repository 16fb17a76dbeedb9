import { gatewayAnswered, gatewayEndpoint, getIdToken } from '../../shared/api';
import type { MeterReading } from '../../contract/route.schema';
import type { DownloadedTask } from './reader-db';
import type { DownloadRequest } from './reader-download';

/** Readings per message from the download worker: 100 of them take a few milliseconds to copy in. */
export const PART_SIZE = 100;

export interface DownloadMessage {
  id: number;
  endpoint: string;
  token: string;
  request: DownloadRequest;
}
/** The worker's messages for a download: its readings in order, in parts, then the rest of the task (or the failure). */
export type DownloadAnswer = { id: number; part: MeterReading[] } | { id: number; ok: true; task: Omit<DownloadedTask, 'readings'> } | { id: number; ok: false; message: string };

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { readings: MeterReading[]; resolve: (t: DownloadedTask) => void; reject: (err: Error) => void }>();

/**
 * Downloads a task for offline use in the download worker (started on first use, kept for the
 * next): resolves with the task as stored on the device, rejects with the server's message.
 * The worker gets the gateway's address and the caller's current ID token with each request.
 */
export async function downloadOffMainThread(request: DownloadRequest): Promise<DownloadedTask> {
  const token = await getIdToken();
  if (!worker) {
    worker = new Worker(new URL('./download.worker.ts', import.meta.url), { type: 'module', name: 'reader-download' });
    worker.onmessage = (e: MessageEvent<DownloadAnswer>) => {
      const m = e.data;
      const p = pending.get(m.id);
      if (!p) return;
      if ('part' in m) return void p.readings.push(...m.part);
      pending.delete(m.id);
      if (m.ok) {
        // the server answered the worker's requests: the upload queue need not wait out its backoff
        gatewayAnswered();
        p.resolve({ ...m.task, readings: p.readings });
      }
      else p.reject(new Error(m.message));
    };
    worker.onerror = (e) => {
      // the worker failed to start (or threw outside a download): every download waiting on it fails
      for (const p of pending.values()) p.reject(new Error(e.message || 'The download worker failed'));
      pending.clear();
      worker = undefined;
    };
  }
  const id = ++nextId;
  const done = new Promise<DownloadedTask>((resolve, reject) => pending.set(id, { readings: [], resolve, reject }));
  worker.postMessage({ id, endpoint: gatewayEndpoint(), token: token ?? '', request } satisfies DownloadMessage);
  return done;
}
