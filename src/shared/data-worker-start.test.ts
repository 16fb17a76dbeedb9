import { afterEach, describe, expect, it, vi } from 'vitest';

/** A stand-in for the browser's Worker: records what was started and lets a test fire its events. */
class FakeWorker extends EventTarget {
  static started: FakeWorker[] = [];
  terminated = false;
  constructor(readonly url: URL | string) {
    super();
    FakeWorker.started.push(this);
  }
  terminate() {
    this.terminated = true;
  }
}

describe('the data worker started early (src/shared/data-worker-start.ts)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
    FakeWorker.started = [];
  });

  it('starts one worker and gives it to the client once', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const { startDataWorker, takeStartedWorker } = await import('./data-worker-start');
    startDataWorker();
    startDataWorker();
    expect(FakeWorker.started).toHaveLength(1);
    expect(String(FakeWorker.started[0]!.url)).toContain('data.worker');
    expect(takeStartedWorker()).toBe(FakeWorker.started[0]);
    expect(takeStartedWorker()).toBeUndefined();
    // the client has its worker: a later start (the page's preload) starts none that nobody would take
    startDataWorker();
    expect(FakeWorker.started).toHaveLength(1);
  });

  it('starts none once the client has made its own (an early read made it before the preload)', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const { startDataWorker, takeStartedWorker } = await import('./data-worker-start');
    expect(takeStartedWorker()).toBeUndefined();
    startDataWorker();
    expect(FakeWorker.started).toHaveLength(0);
  });

  it('a worker whose script failed to load is not given (the client starts another); an error thrown inside a running one is not that', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    vi.stubGlobal('ErrorEvent', class extends Event {});
    const { startDataWorker, takeStartedWorker } = await import('./data-worker-start');
    startDataWorker();
    FakeWorker.started[0]!.dispatchEvent(new ErrorEvent('error'));
    expect(takeStartedWorker()).toBe(FakeWorker.started[0]);
    // the next page load
    vi.resetModules();
    const again = await import('./data-worker-start');
    again.startDataWorker();
    FakeWorker.started[1]!.dispatchEvent(new Event('error'));
    expect(again.takeStartedWorker()).toBeUndefined();
    expect(FakeWorker.started[1]!.terminated).toBe(true);
  });
});
