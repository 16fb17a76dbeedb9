import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Capture } from '../../../machines/reader-sync.machine';
import type { ReaderTask } from '../../contract/reader.schema';
import type { MeterReadingAnswer } from '../../contract/route.schema';

/** A task downloaded for offline use: the task and its readings as the server had them, and when. */
export interface DownloadedTask extends ReaderTask {
  orgId: string;
  orgName: string;
  downloadedAt: number;
}

/** Who was signed in when the data was stored: another user on this device sees none of it. */
export interface ReaderOwner {
  sub: string;
  email: string;
}

interface ReaderSchema extends DBSchema {
  tasks: { key: string; value: DownloadedTask };
  captures: { key: string; value: Capture };
  meta: { key: 'owner'; value: ReaderOwner };
}

export const READER_DB = 'tidewatch-reader';

/** A downloaded task as a sent capture's answer leaves it: that reading as the server recorded it, and the task's progress. */
export const withAnswer = (t: DownloadedTask, answer: MeterReadingAnswer): DownloadedTask => ({
  ...t,
  task: answer.task,
  readings: t.readings.map((r) => (r.id === answer.reading.id ? answer.reading : r)),
});

/** The reader app's device storage (IndexedDB through idb): downloaded tasks, the capture queue, the owner. */
export class ReaderDb {
  private constructor(private readonly db: IDBPDatabase<ReaderSchema>) {}

  static async open(name = READER_DB): Promise<ReaderDb> {
    const db = await openDB<ReaderSchema>(name, 1, {
      upgrade(d) {
        d.createObjectStore('tasks');
        d.createObjectStore('captures');
        d.createObjectStore('meta');
      },
    });
    return new ReaderDb(db);
  }

  owner = () => this.db.get('meta', 'owner');

  /** Binds the stored data to `owner`; a different user first clears everything of the previous one. */
  async claim(owner: ReaderOwner): Promise<void> {
    const prev = await this.owner();
    if (prev && prev.sub !== owner.sub) {
      const tx = this.db.transaction(['tasks', 'captures', 'meta'], 'readwrite');
      await Promise.all([tx.objectStore('tasks').clear(), tx.objectStore('captures').clear(), tx.done]);
    }
    await this.db.put('meta', owner, 'owner');
  }

  tasks = () => this.db.getAll('tasks');
  task = (taskId: string) => this.db.get('tasks', taskId);
  putTask = (t: DownloadedTask) => this.db.put('tasks', t, t.task.id);
  removeTask = (taskId: string) => this.db.delete('tasks', taskId);

  /** The downloaded copy updated from a sent capture's answer: the reading as recorded and the task's progress (nothing when the task is not on the device). */
  async putAnswer(taskId: string, answer: MeterReadingAnswer): Promise<void> {
    const tx = this.db.transaction('tasks', 'readwrite');
    const t = await tx.store.get(taskId);
    if (t) await tx.store.put(withAnswer(t, answer), taskId);
    await tx.done;
  }

  captures = () => this.db.getAll('captures');

  /** Writes the whole queue as the sync machine holds it: the store holds exactly these captures (what the reader dismissed or removed goes). */
  async putCaptures(captures: readonly Capture[]): Promise<void> {
    const tx = this.db.transaction('captures', 'readwrite');
    const keep = new Set(captures.map((c) => c.id));
    const gone = (await tx.store.getAllKeys()).filter((k) => !keep.has(k));
    await Promise.all([...gone.map((k) => tx.store.delete(k)), ...captures.map((c) => tx.store.put(c, c.id)), tx.done]);
  }

  close = () => this.db.close();
}
