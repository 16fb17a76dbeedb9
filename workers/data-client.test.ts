// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDataWorker } from './data-client';

/** A Worker whose script the test loads or fails to load; it never answers a call. */
class FakeWorker extends EventTarget {
  static last: FakeWorker | undefined;
  posted = 0;
  constructor() {
    super();
    FakeWorker.last = this;
  }
  postMessage() {
    this.posted++;
  }
  terminate() {}
}

/** The data worker's client when its script cannot be loaded (the notifications filter offline on first use). */
describe('createDataWorker: a worker that never starts', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it("fails the calls waiting on it and those made after, as a failed fetch, and says it is broken; an error thrown inside a running worker does not", async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const client = createDataWorker({ apiBase: '/api', getIdToken: async () => 't' });
    const waiting = client.api.fleetLoad({ apiBase: '/api', token: 't', orgId: 'o1' });
    let settled = false;
    void waiting.catch(() => undefined).finally(() => (settled = true));

    // a runtime error of a running worker: the worker goes on, nothing fails
    FakeWorker.last!.dispatchEvent(new ErrorEvent('error', { message: 'boom' }));
    await new Promise((r) => setTimeout(r, 0));
    expect(settled).toBe(false);
    expect(client.broken).toBe(false);

    // the script could not be fetched: a plain error event
    FakeWorker.last!.dispatchEvent(new Event('error'));
    await expect(waiting).rejects.toThrow('Failed to fetch');
    expect(client.broken).toBe(true);
    await expect(client.api.fleetRefresh({ apiBase: '/api', token: 't', orgId: 'o1' })).rejects.toThrow('Failed to fetch');
  });
});
