/// <reference lib="webworker" />
import '../../contract/csp-safe-zod'; // first: before any schema parses (see the file)
import { configureGateway } from '../../shared/api';
import { ReaderDb } from './reader-db';
import { downloadInto } from './reader-download';
import { PART_SIZE, type DownloadAnswer, type DownloadMessage } from './download-client';

// The reader app's download worker: fetches a task with its readings, validates it and writes it
// to the device's IndexedDB, off the page's main thread. It then hands the stored task to the page
// in parts of PART_SIZE readings, one message each, so that copying it in is many short tasks of
// the page's instead of one long one.
const db = ReaderDb.open();
const post = (answer: DownloadAnswer) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(answer);

self.onmessage = async (e: MessageEvent<DownloadMessage>) => {
  const { id, endpoint, token, request } = e.data;
  try {
    configureGateway({ endpoint, getIdToken: async () => token });
    const { readings, ...task } = await downloadInto(await db, request, Date.now);
    for (let i = 0; i < readings.length; i += PART_SIZE) post({ id, part: readings.slice(i, i + PART_SIZE) });
    post({ id, ok: true, task });
  } catch (err) {
    post({ id, ok: false, message: (err as Error).message });
  }
};
