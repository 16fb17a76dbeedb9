import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { VERIFY_FAILURE_MS, VERIFY_SUCCESS_MS, verifyEmailMachine } from '../../machines/verify-email.machine';

// Organisation-and-routes 2.3 and 9: states waiting, success, failure; 6 s success redirect, 8 s failure reset.
function run(code: string | null, confirm: () => Promise<void>) {
  const left = vi.fn();
  const verified = vi.fn();
  const actor = createActor(
    verifyEmailMachine.provide({ actors: { confirm: fromPromise(confirm) }, actions: { leave: left, verified } }),
    { input: { code } },
  ).start();
  return { actor, left, verified };
}

describe('email verification (organisation-and-routes 2.3)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('leaves at once when there is no code', () => {
    const { actor, left } = run(null, async () => undefined);
    expect(actor.getSnapshot().value).toBe('done');
    expect(left).toHaveBeenCalledTimes(1);
  });

  it('shows success, re-reads the user, and leaves after 6 seconds', async () => {
    const { actor, left, verified } = run('123456', async () => undefined);
    expect(actor.getSnapshot().value).toBe('waiting');
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('success');
    expect(verified).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(VERIFY_SUCCESS_MS - 1);
    expect(left).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(left).toHaveBeenCalledTimes(1);
    expect(VERIFY_SUCCESS_MS).toBe(6000);
  });

  it('shows the failure for 8 seconds, then leaves', async () => {
    const { actor, left } = run('123456', async () => {
      throw Object.assign(new Error('Invalid code'), { name: 'CodeMismatchException' });
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('failure');
    await vi.advanceTimersByTimeAsync(VERIFY_FAILURE_MS - 1);
    expect(left).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(left).toHaveBeenCalledTimes(1);
    expect(VERIFY_FAILURE_MS).toBe(8000);
  });

  it('an expired code redirects home at once', async () => {
    const { actor, left } = run('123456', async () => {
      throw Object.assign(new Error('expired'), { name: 'ExpiredCodeException' });
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('done');
    expect(left).toHaveBeenCalledTimes(1);
  });

  it("a link whose code a newer one replaced says so for 8 seconds (issue 36 item 22), then leaves; it is not the wrong-account failure", async () => {
    const { actor, left, verified } = run('123456', async () => {
      throw Object.assign(new Error('replaced'), { name: 'CodeSupersededException' });
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('superseded');
    expect(verified).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(VERIFY_FAILURE_MS - 1);
    expect(left).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(left).toHaveBeenCalledTimes(1);
  });
});
