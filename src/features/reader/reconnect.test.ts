import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { readerSyncMachine, type Capture } from '../../../machines/reader-sync.machine';
import type { MeterReadingAnswer } from '../../contract/route.schema';
import { PROBE_MS, retryWhenReachable } from './reconnect';

const capture = (id: string): Capture => ({
  id,
  orgId: 'o',
  taskId: 't',
  readingId: `r-${id}`,
  body: { value: 1 } as Capture['body'],
  capturedAt: 1,
  status: 'waiting',
  attempts: 9, // a long outage: the next wait is the 30 s cap
  refusal: null,
});

/** A page whose visibility the test sets. */
function fakePage() {
  const listeners = new Set<() => void>();
  const page = {
    visibilityState: 'hidden' as DocumentVisibilityState,
    addEventListener: (_: string, l: () => void) => void listeners.add(l),
    removeEventListener: (_: string, l: () => void) => void listeners.delete(l),
  };
  return { page: page as unknown as Document, show: () => ((page.visibilityState = 'visible'), listeners.forEach((l) => l())), listeners };
}

function start(uploadOk: () => boolean) {
  const uploads: string[] = [];
  const sync = createActor(
    readerSyncMachine.provide({
      actors: {
        upload: fromPromise<MeterReadingAnswer, Capture>(async ({ input }) => {
          uploads.push(input.id);
          if (!uploadOk()) throw { message: 'Failed to fetch' };
          return {} as MeterReadingAnswer;
        }),
      },
    }),
    { input: { captures: [capture('a')], online: true } },
  ).start();
  return { sync, uploads };
}

describe('retryWhenReachable: a connection back without an online event', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('probes while the queue backs off and retries as soon as the server answers, before the backoff is over', async () => {
    let network = false;
    const { sync, uploads } = start(() => network);
    const probes: number[] = [];
    const stop = retryWhenReachable(sync, { probe: async () => (probes.push(Date.now()), network) });
    await vi.advanceTimersByTimeAsync(0);
    expect(sync.getSnapshot().value).toBe('backoff');
    expect(uploads).toEqual(['a']);

    // no answer: probes every PROBE_MS, no send
    await vi.advanceTimersByTimeAsync(3 * PROBE_MS);
    expect(probes).toHaveLength(3);
    expect(uploads).toEqual(['a']);

    // the connection comes back (no online event): the next probe answers and the capture is sent
    network = true;
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(uploads).toEqual(['a', 'a']);
    expect(sync.getSnapshot().context.captures[0]!.status).toBe('sent');
    expect(sync.getSnapshot().value).toBe('idle');

    // idle: no more probes
    const probed = probes.length;
    await vi.advanceTimersByTimeAsync(5 * PROBE_MS);
    expect(probes).toHaveLength(probed);
    stop();
  });

  it('never probes outside a backoff, and stops probing when stopped', async () => {
    const { sync } = start(() => false);
    sync.send({ type: 'OFFLINE' });
    const probe = vi.fn(async () => true);
    const stop = retryWhenReachable(sync, { probe });
    await vi.advanceTimersByTimeAsync(0);
    expect(sync.getSnapshot().value).toBe('offline');
    await vi.advanceTimersByTimeAsync(4 * PROBE_MS);
    expect(probe).not.toHaveBeenCalled();

    sync.send({ type: 'ONLINE' });
    await vi.advanceTimersByTimeAsync(0);
    expect(sync.getSnapshot().value).toBe('backoff');
    stop();
    await vi.advanceTimersByTimeAsync(4 * PROBE_MS);
    expect(probe).not.toHaveBeenCalled();
  });

  it('tries at once when the app comes back to the foreground', async () => {
    let network = false;
    const { sync, uploads } = start(() => network);
    const { page, show, listeners } = fakePage();
    const stop = retryWhenReachable(sync, { probe: async () => false, page });
    await vi.advanceTimersByTimeAsync(0);
    expect(sync.getSnapshot().value).toBe('backoff');
    network = true;
    show();
    await vi.advanceTimersByTimeAsync(0);
    expect(uploads).toEqual(['a', 'a']);
    expect(sync.getSnapshot().context.captures[0]!.status).toBe('sent');
    stop();
    expect(listeners.size).toBe(0);
  });
});

describe("retryWhenReachable: the app's own requests", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  /** The app's successful requests as api.ts reports them (onGatewayAnswered). */
  function answersSource() {
    const listeners = new Set<() => void>();
    return {
      answers: (l: () => void) => (listeners.add(l), () => void listeners.delete(l)),
      succeed: () => listeners.forEach((l) => l()),
      listeners,
    };
  }

  it('a request of the app that succeeds while the queue backs off sends the capture at once, without waiting for a probe', async () => {
    let network = false;
    const { sync, uploads } = start(() => network);
    const probe = vi.fn(async () => false); // the health probe would not have said so yet
    const source = answersSource();
    const stop = retryWhenReachable(sync, { probe, answers: source.answers });
    await vi.advanceTimersByTimeAsync(0);
    expect(sync.getSnapshot().value).toBe('backoff');
    expect(uploads).toEqual(['a']);

    network = true;
    source.succeed(); // e.g. the task list was read
    await vi.advanceTimersByTimeAsync(0);
    expect(uploads).toEqual(['a', 'a']);
    expect(sync.getSnapshot().context.captures[0]!.status).toBe('sent');
    expect(probe).not.toHaveBeenCalled();
    stop();
    expect(source.listeners.size).toBe(0);
  });

  it('outside a backoff a successful request changes nothing (offline stays offline, idle stays idle)', async () => {
    const { sync, uploads } = start(() => false);
    sync.send({ type: 'OFFLINE' });
    const source = answersSource();
    const stop = retryWhenReachable(sync, { probe: async () => true, answers: source.answers });
    await vi.advanceTimersByTimeAsync(0);
    const sent = uploads.length;
    source.succeed();
    await vi.advanceTimersByTimeAsync(0);
    expect(sync.getSnapshot().value).toBe('offline');
    expect(uploads).toHaveLength(sent);
    stop();
  });
});
