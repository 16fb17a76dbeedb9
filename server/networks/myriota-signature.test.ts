import { describe, expect, it, vi } from 'vitest';
import { certificateSource } from './myriota-signature';

const url = new URL('https://security.myriota.com/data-1.crt');

describe('certificateSource: Myriota certificates fetched once, failures tried again', () => {
  it('fetches a certificate once and keeps it', async () => {
    const fetchFn = vi.fn(async () => new Response('PEM'));
    const source = certificateSource(undefined, fetchFn as unknown as typeof fetch);
    expect(await source(url)).toBe('PEM');
    expect(await source(url)).toBe('PEM');
    expect(fetchFn).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failure, refuses an answer larger than a certificate, and follows no redirect', async () => {
    const answers = [new Response('gone', { status: 503 }), new Response('x'.repeat(70_000)), new Response('PEM')];
    const fetchFn = vi.fn(async (_: URL, init?: RequestInit) => {
      expect(init?.redirect).toBe('error');
      expect(init?.signal).toBeInstanceOf(AbortSignal);
      return answers.shift()!;
    });
    const source = certificateSource(undefined, fetchFn as unknown as typeof fetch);
    await expect(source(url)).rejects.toThrow(/answered 503/);
    await expect(source(url)).rejects.toThrow(/larger than a certificate/);
    expect(await source(url)).toBe('PEM');
    expect(fetchFn).toHaveBeenCalledTimes(3);
  });
});
