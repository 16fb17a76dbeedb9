import { downloadTask } from './reader-api';
import type { DownloadedTask, ReaderDb } from './reader-db';

/** A task to download for offline use: which one, and the organisation it is stored under. */
export interface DownloadRequest {
  orgId: string;
  orgName: string;
  taskId: string;
}

/**
 * The download for offline use (issue 33 "Tasks"): the task with its readings from the server,
 * validated, stored on the device. It runs in the download worker (download.worker.ts): for a
 * 1,000-reading route the answer's JSON, its validation and IndexedDB's copy of it are tens of
 * milliseconds each, which on the page's main thread made one task of them all (benchmark 20).
 */
export async function downloadInto(db: ReaderDb, req: DownloadRequest, now: () => number): Promise<DownloadedTask> {
  const fresh = await downloadTask(req.orgId, req.taskId);
  const stored: DownloadedTask = { ...fresh, orgId: req.orgId, orgName: req.orgName, downloadedAt: now() };
  await db.putTask(stored);
  return stored;
}
