// @vitest-environment happy-dom
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { loader } from './lazy-now';

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
