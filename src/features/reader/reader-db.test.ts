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
    await again.putCaptures([capture('k1', 'sent'), capture('k2', 'refused')]);
    expect((await again.captures()).map((c) => c.status)).toEqual(['sent', 'refused']);
    // the queue without a dismissed capture: the device no longer holds it
    await again.putCaptures([capture('k1', 'sent')]);
    expect((await again.captures()).map((c) => [c.id, c.status])).toEqual([['k1', 'sent']]);

    await again.claim({ sub: 'u2', email: 'other@demo.test' });
    expect(await again.tasks()).toEqual([]);
    expect(await again.captures()).toEqual([]);
    expect(await again.owner()).toEqual({ sub: 'u2', email: 'other@demo.test' });
  });
});

describe('the downloaded copy', () => {
  it('takes a sent capture\u2019s answer: the reading as recorded and the task as it now is; removing the task leaves nothing', async () => {
    const db = await ReaderDb.open(`reader-${Math.random()}`);
    const r = (id: string, completed: boolean, value: number | null) => ({ id, completed, value }) as unknown as DownloadedTask['readings'][number];
    await db.putTask({ ...task('t1'), readings: [r('a', false, null), r('b', false, null)] });
    await db.putAnswer('t1', { reading: r('b', true, 42), task: { id: 't1', completedReadings: 1 } as unknown as DownloadedTask['task'] });
    const t = (await db.task('t1'))!;
    expect(t.readings.map((x) => [x.id, x.completed, x.value])).toEqual([['a', false, null], ['b', true, 42]]);
    expect(t.task).toEqual({ id: 't1', completedReadings: 1 });
    expect(t.downloadedAt).toBe(1);
    await db.putAnswer('gone', { reading: r('b', true, 1), task: { id: 'gone' } as DownloadedTask['task'] }); // not on the device: nothing stored
    expect((await db.tasks()).map((x) => x.task.id)).toEqual(['t1']);
    await db.removeTask('t1');
    expect(await db.tasks()).toEqual([]);
  });
});
