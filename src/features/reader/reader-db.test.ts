import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ReaderDb, type DownloadedTask } from './reader-db';
import type { Capture } from '../../../machines/reader-sync.machine';

const task = (id: string): DownloadedTask => ({ orgId: 'o', orgName: 'Harbour City Council', downloadedAt: 1, task: { id } as DownloadedTask['task'], readings: [] });
const capture = (id: string, status: Capture['status']): Capture => ({ id, orgId: 'o', taskId: 't', readingId: 'r', body: { value: 1, recordedAt: 1 }, capturedAt: 1, status, attempts: 0, refusal: null });

// issue 33: the reader's tasks and captures stay on the device, bound to the signed-in user
describe('reader device storage', () => {
  it('keeps downloaded tasks and the capture queue across openings; another user on the device starts empty', async () => {
    const name = `reader-${Math.random()}`;
    const db = await ReaderDb.open(name);
    await db.claim({ sub: 'u1', email: 'reader@demo.test' });
    await db.putTask(task('t1'));
    await db.putCaptures([capture('k1', 'waiting'), capture('k2', 'refused')]);
    db.close();

    const again = await ReaderDb.open(name);
    await again.claim({ sub: 'u1', email: 'reader@demo.test' });
    expect((await again.tasks()).map((t) => t.task.id)).toEqual(['t1']);
    expect((await again.captures()).map((c) => [c.id, c.status])).toEqual([['k1', 'waiting'], ['k2', 'refused']]);
    await again.putCaptures([capture('k1', 'sent')]);
    expect((await again.captures()).map((c) => c.status)).toEqual(['sent', 'refused']);

    await again.claim({ sub: 'u2', email: 'other@demo.test' });
    expect(await again.tasks()).toEqual([]);
    expect(await again.captures()).toEqual([]);
    expect(await again.owner()).toEqual({ sub: 'u2', email: 'other@demo.test' });
  });
});
