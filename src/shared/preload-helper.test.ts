// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPreloader, LINKS_PER_TASK } from './preload-helper';

/** A nextTask whose turns the test hands out one at a time. */
function turns() {
  const waiting: (() => void)[] = [];
  return {
    nextTask: () => new Promise<void>((resolve) => waiting.push(resolve)),
    async give() {
      waiting.shift()?.();
      await Promise.resolve();
      await Promise.resolve();
    },
    get pending() {
      return waiting.length;
    },
  };
}

const links = (rel: string) => Array.from(document.head.querySelectorAll<HTMLLinkElement>(`link[rel="${rel}"]`)).map((l) => new URL(l.href).pathname);
const chunks = (n: number) => Array.from({ length: n }, (_, i) => `assets/c${i}.js`);

describe('the preload helper (vite.batched-preload.ts)', () => {
  beforeEach(() => {
    document.head.innerHTML = '';
  });

  it(`appends a lazy chunk's script links ${LINKS_PER_TASK} a task, in Vite's order, and imports the chunk without waiting for them`, async () => {
    const t = turns();
    const preload = createPreloader(document, '/', t.nextTask);
    const load = vi.fn(() => Promise.resolve('module'));
    // two whole batches and part of a third
    const n = 2 * LINKS_PER_TASK + 2;
    const deps = chunks(n);
    const done = preload(load, deps);
    // the first batch in the calling task: the chunk itself first
    expect(links('modulepreload')).toEqual(deps.slice(0, LINKS_PER_TASK).map((d) => `/${d}`));
    await expect(done).resolves.toBe('module');
    expect(load).toHaveBeenCalledOnce();
    await t.give();
    expect(links('modulepreload')).toHaveLength(2 * LINKS_PER_TASK);
    await t.give();
    expect(links('modulepreload')).toEqual(deps.map((d) => `/${d}`));
    // the turn after the last batch finds nothing left, and asks for no other
    await t.give();
    expect(t.pending).toBe(0);
    // a later import's links start a new task's batch
    preload(load, chunks(n + 2 * LINKS_PER_TASK).slice(n));
    expect(links('modulepreload')).toHaveLength(n + LINKS_PER_TASK);
    for (const l of document.head.querySelectorAll<HTMLLinkElement>('link')) {
      expect(l.as).toBe('script');
      expect(l.crossOrigin).toBe('');
    }
  });

  it('asks for a chunk once: not again for a later import, nor for a link the page already has', async () => {
    const t = turns();
    document.head.innerHTML = '<link rel="modulepreload" href="/assets/c0.js">';
    const preload = createPreloader(document, '/', t.nextTask);
    await preload(() => Promise.resolve(1), chunks(3));
    await preload(() => Promise.resolve(2), chunks(5));
    expect(links('modulepreload')).toEqual(['/assets/c0.js', '/assets/c1.js', '/assets/c2.js', '/assets/c3.js', '/assets/c4.js']);
  });

  it("waits for the chunk's style sheets, appended at once, before importing it", async () => {
    const preload = createPreloader(document, '/', turns().nextTask);
    const load = vi.fn(() => Promise.resolve('styled'));
    const done = preload(load, [...chunks(12), 'assets/page.css']);
    expect(links('stylesheet')).toEqual(['/assets/page.css']);
    await Promise.resolve();
    expect(load).not.toHaveBeenCalled();
    document.head.querySelector('link[rel=stylesheet]')!.dispatchEvent(new Event('load'));
    await expect(done).resolves.toBe('styled');
  });

  it("a style sheet that fails raises Vite's vite:preloadError, and the import fails unless a listener prevents it", async () => {
    const preload = createPreloader(document, '/', turns().nextTask);
    const seen: unknown[] = [];
    const listener = (e: Event) => seen.push((e as Event & { payload: unknown }).payload);
    window.addEventListener('vite:preloadError', listener);
    try {
      const failed = preload(() => Promise.resolve('x'), ['assets/a.css']);
      document.head.querySelector('link[rel=stylesheet]')!.dispatchEvent(new Event('error'));
      await expect(failed).rejects.toThrow('Unable to preload CSS for http');
      expect(seen).toHaveLength(1);
      const prevent = (e: Event) => e.preventDefault();
      window.addEventListener('vite:preloadError', prevent);
      const kept = preload(() => Promise.resolve('y'), ['assets/b.css']);
      document.head.querySelector('link[href$="b.css"]')!.dispatchEvent(new Event('error'));
      await expect(kept).resolves.toBe('y');
      window.removeEventListener('vite:preloadError', prevent);
    } finally {
      window.removeEventListener('vite:preloadError', listener);
    }
  });

  it("a failed import raises vite:preloadError too, as Vite's helper does", async () => {
    const preload = createPreloader(document, '/', turns().nextTask);
    const events: Event[] = [];
    const listener = (e: Event) => events.push(e);
    window.addEventListener('vite:preloadError', listener);
    try {
      await expect(preload(() => Promise.reject(new Error('chunk gone')), chunks(2))).rejects.toThrow('chunk gone');
      expect(events).toHaveLength(1);
    } finally {
      window.removeEventListener('vite:preloadError', listener);
    }
  });
});
