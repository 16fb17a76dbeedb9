// @vitest-environment happy-dom
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { bothOrFirstAndWait, loader } from './lazy-now';

afterEach(cleanup);

const Page = ({ name }: { name: string }) => <p>page {name}</p>;

describe('loader: a page whose code is in renders without suspending (React 19 holds a suspended reveal 300 ms)', () => {
  it('draws at once, with no fallback, when the module loaded before the first render', async () => {
    const code = loader(async () => ({ Page }));
    const Now = code.component((m) => m.Page);
    await code.load();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Now name="a" />
      </Suspense>,
    );
    // synchronously in the first commit: no fallback shown, nothing awaited
    expect(screen.queryByText('loading')).toBeNull();
    expect(screen.getByText('page a')).toBeTruthy();
  });

  it('suspends when the module is not in yet, then draws it; one load for every component and preload', async () => {
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const code = loader(async () => {
      loads++;
      await gate;
      return { Page };
    });
    const Now = code.component((m) => m.Page);
    render(
      <Suspense fallback={<p>loading</p>}>
        <Now name="b" />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    void code.load();
    await act(async () => {
      release();
      await code.load();
    });
    expect(await screen.findByText('page b')).toBeTruthy();
    expect(loads).toBe(1);
  });

  it('a failed load is tried again by the next one', async () => {
    let fail = true;
    const code = loader(async () => {
      if (fail) throw new TypeError('Failed to fetch');
      return { Page };
    });
    await expect(code.load()).rejects.toThrow('Failed to fetch');
    fail = false;
    await expect(code.load()).resolves.toEqual({ Page });
  });
});

describe('bothOrFirstAndWait: the signed-in splash waits for the frame and the section, the section at most a while', () => {
  const gate = () => {
    let open!: () => void;
    let fail!: (e: Error) => void;
    const promise = new Promise<void>((res, rej) => ((open = res), (fail = rej)));
    return { promise, open, fail };
  };
  const settled = (p: Promise<void>) => {
    const state = { done: false };
    void p.then(() => (state.done = true));
    return state;
  };
  afterEach(() => vi.useRealTimers());

  it('settles when both are in, however long the frame took', async () => {
    vi.useFakeTimers();
    const frame = gate();
    const section = gate();
    const s = settled(bothOrFirstAndWait(frame.promise, section.promise, 500));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(s.done).toBe(false);
    section.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.done).toBe(false);
    frame.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.done).toBe(true);
  });

  it('settles the wait after the frame is in when the section is still loading (a slow line), not before', async () => {
    vi.useFakeTimers();
    const frame = gate();
    const s = settled(bothOrFirstAndWait(frame.promise, gate().promise, 500));
    frame.open();
    await vi.advanceTimersByTimeAsync(499);
    expect(s.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.done).toBe(true);
  });

  it('settles, without rejecting, when either load fails', async () => {
    const frame = gate();
    const failedFrame = bothOrFirstAndWait(frame.promise, new Promise(() => undefined), 500);
    frame.fail(new Error('Failed to fetch'));
    await expect(failedFrame).resolves.toBeUndefined();
    await expect(bothOrFirstAndWait(Promise.resolve(), Promise.reject(new Error('Failed to fetch')), 500)).resolves.toBeUndefined();
  });
});
