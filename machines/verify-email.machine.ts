import { fromPromise, setup, type SnapshotFrom } from 'xstate';

/**
 * /verify-email?code= (organisation-and-routes 2.3): waiting, success, failure. No code or an
 * expired code leaves at once; success leaves after 6 s; a failure shows its message for 8 s,
 * the message reverts, and then the user leaves. A code that a newer one replaced (the link of an
 * older email) is a failure of its own, superseded, which says so for the same 8 s. `leave` is
 * the view's redirect to /.
 */
export const VERIFY_SUCCESS_MS = 6000;
export const VERIFY_FAILURE_MS = 8000;

const errorName = (error: unknown) => (error as { name?: string } | null)?.name;

export const verifyEmailMachine = setup({
  types: { context: {} as { code: string }, input: {} as { code: string | null } },
  actors: {
    /** Amplify confirmUserAttribute({ userAttributeKey: 'email', confirmationCode }). */
    confirm: fromPromise<void, { code: string }>(async () => undefined),
  },
  actions: {
    /** The page is done: redirect to /. */
    leave: () => undefined,
    /** The user record now says verified: re-read it. */
    verified: () => undefined,
  },
  guards: {
    noCode: ({ context }) => !context.code,
    expired: ({ event }) => errorName((event as unknown as { error: unknown }).error) === 'ExpiredCodeException',
    superseded: ({ event }) => errorName((event as unknown as { error: unknown }).error) === 'CodeSupersededException',
  },
  delays: { successRedirect: VERIFY_SUCCESS_MS, failureReset: VERIFY_FAILURE_MS },
}).createMachine({
  id: 'verifyEmail',
  context: ({ input }) => ({ code: (input.code ?? '').trim() }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'noCode', target: 'done' }, { target: 'waiting' }] },
    waiting: {
      invoke: {
        id: 'confirm',
        src: 'confirm',
        input: ({ context }) => ({ code: context.code }),
        onDone: { target: 'success', actions: 'verified' },
        onError: [{ guard: 'expired', target: 'done' }, { guard: 'superseded', target: 'superseded' }, { target: 'failure' }],
      },
    },
    success: { after: { successRedirect: 'done' } },
    failure: { after: { failureReset: 'done' } },
    superseded: { after: { failureReset: 'done' } },
    done: { type: 'final', entry: 'leave' },
  },
});

export type VerifyEmailSnapshot = SnapshotFrom<typeof verifyEmailMachine>;
