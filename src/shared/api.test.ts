import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, configureGateway, onGatewayAnswered, READ_TIMEOUT_MS } from './api';

/** The reader app's upload queue hears of the gateway's successful answers (src/features/reader/reconnect.ts). */
describe('onGatewayAnswered', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('is told of each call the gateway answers with success, not of a refusal or a failed fetch, until stopped', async () => {
    configureGateway({ endpoint: 'http://gateway.test/api', getIdToken: async () => 'token' });
    let answer: () => Promise<Response> = async () => new Response('{"ok":true}', { status: 200 });
    vi.stubGlobal('fetch', () => answer());
    const heard = vi.fn();
    const stop = onGatewayAnswered(heard);

    await api.get('/organisations');
    expect(heard).toHaveBeenCalledTimes(1);

    answer = async () => new Response('{"code":"NOT_ASSIGNED","message":"This route task is not assigned to you."}', { status: 403 });
    await expect(api.get('/organisations')).rejects.toThrow('This route task is not assigned to you.');
    answer = async () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(api.get('/organisations')).rejects.toThrow('Failed to fetch');
    expect(heard).toHaveBeenCalledTimes(1);

    stop();
    answer = async () => new Response('{}', { status: 200 });
    await api.get('/organisations');
    expect(heard).toHaveBeenCalledTimes(1);
  });
});

/** A stalled connection: a fetch that never settles until its signal aborts it, as the browser's does. */
function stalledFetch() {
  const seen: AbortSignal[] = [];
  vi.stubGlobal('fetch', (_url: URL, init: RequestInit) => {
    seen.push(init.signal!);
    return new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
  });
  return seen;
}

describe('a stalled read', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('fails as a lost network after READ_TIMEOUT_MS, so the page shows its network message and retry', async () => {
    vi.useFakeTimers();
    configureGateway({ endpoint: 'http://gateway.test/api', getIdToken: async () => 'token' });
    stalledFetch();
    const read = api.get('/organisations');
    const failed = expect(read).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR', message: 'Failed to fetch' });
    await vi.advanceTimersByTimeAsync(READ_TIMEOUT_MS - 1);
    let settled = false;
    void read.catch(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await failed;
  });

  it('is still the caller\'s to cancel (an AbortError, not a network failure), and a write is not timed out', async () => {
    vi.useFakeTimers();
    configureGateway({ endpoint: 'http://gateway.test/api', getIdToken: async () => 'token' });
    const seen = stalledFetch();
    const ctrl = new AbortController();
    const read = api.get('/organisations', { signal: ctrl.signal });
    const cancelled = expect(read).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(0);
    ctrl.abort();
    await cancelled;

    void api.post('/organisations', { name: 'Slow upload' }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(READ_TIMEOUT_MS * 3);
    expect(seen.at(-1)!.aborted).toBe(false);
  });
});
