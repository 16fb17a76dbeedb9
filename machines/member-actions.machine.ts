import { and, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { MFA_RESET_MESSAGES, ORG_SETTINGS_MESSAGES, isTooManyRequests, memberActionNotice, memberActions, type MemberAction, type MemberRow, type Viewer } from '../src/domain/org-settings';

/**
 * The member list's row actions (organisation-and-routes 2.1, 4, 8; issue 35). An action the
 * viewer may not take on that row (not a manager, their own row, the owner's role; a reset of
 * two-factor authentication by anyone but the owner or a site admin, or of a member without it) is
 * ignored. Remove, Cancel Invitation and Reset two-factor authentication ask first ("Are you sure
 * you want to remove this member?", "... cancel this invitation?", what a reset does); role changes
 * and Resend go at once. One action at a time. A done action bumps `changes` so the list reloads;
 * every outcome leaves a notice (resend: the email on success, the too-many-attempts notice on
 * TOO_MANY_REQUESTS, else the generic resend failure; a refused reset: the server's reason).
 */

export interface MemberActionsContext {
  viewer: Viewer;
  action: MemberAction | null;
  member: MemberRow | null;
  notice: { kind: 'success' | 'error'; text: string } | null;
  changes: number;
}

export type MemberActionsEvent = { type: 'ACT'; action: MemberAction; member: MemberRow } | { type: 'CONFIRM' } | { type: 'DISMISS' } | { type: 'VIEWER'; viewer: Viewer };

export interface ActionRequest {
  action: MemberAction;
  member: MemberRow;
}

export const memberActionsMachine = setup({
  types: { context: {} as MemberActionsContext, events: {} as MemberActionsEvent, input: {} as { viewer: Viewer } },
  actors: {
    /** The gateway call of the action: PATCH (role), DELETE member, POST invite?resend=true, DELETE invite/{email}, POST reset-mfa. */
    perform: fromPromise<unknown, ActionRequest>(async () => {
      throw new Error('perform not provided');
    }),
  },
  guards: {
    allowed: ({ context, event }) => event.type === 'ACT' && memberActions(event.member, context.viewer).includes(event.action),
    asksFirst: ({ event }) => event.type === 'ACT' && (event.action === 'remove' || event.action === 'cancelInvite' || event.action === 'resetMfa'),
    tooMany: ({ event }) => isTooManyRequests((event as { error?: unknown }).error),
  },
  actions: {
    take: assign(({ event }) => (event.type === 'ACT' ? { action: event.action, member: event.member, notice: null } : {})),
    forget: assign({ action: null, member: null }),
  },
}).createMachine({
  id: 'memberActions',
  context: ({ input }) => ({ viewer: input.viewer, action: null, member: null, notice: null, changes: 0 }),
  initial: 'idle',
  on: { VIEWER: { actions: assign(({ event }) => ({ viewer: event.viewer })) } },
  states: {
    idle: {
      on: {
        ACT: [
          { guard: and(['allowed', 'asksFirst']), target: 'confirming', actions: 'take' },
          { guard: 'allowed', target: 'working', actions: 'take' },
        ],
      },
    },
    confirming: {
      on: {
        CONFIRM: 'working',
        DISMISS: { target: 'idle', actions: 'forget' },
      },
    },
    working: {
      invoke: {
        src: 'perform',
        input: ({ context }) => ({ action: context.action!, member: context.member! }),
        onDone: {
          target: 'idle',
          actions: assign(({ context }) => ({
            notice: { kind: 'success' as const, text: memberActionNotice.done(context.action!, context.member!) },
            changes: context.changes + 1,
            action: null,
            member: null,
          })),
        },
        onError: [
          {
            guard: 'tooMany',
            target: 'idle',
            actions: assign(({ context }) => ({ notice: { kind: 'error' as const, text: memberActionNotice.failed(context.action!, true) }, action: null, member: null })),
          },
          {
            target: 'idle',
            // the list may have changed under us (another manager): read it again
            actions: assign(({ context, event }) => ({
              notice: { kind: 'error' as const, text: memberActionNotice.failed(context.action!, false, event.error) },
              changes: context.changes + 1,
              action: null,
              member: null,
            })),
          },
        ],
      },
    },
  },
});

export type MemberActionsSnapshot = SnapshotFrom<typeof memberActionsMachine>;
const CONFIRM: Partial<Record<MemberAction, string>> = {
  remove: ORG_SETTINGS_MESSAGES.removeConfirm,
  cancelInvite: ORG_SETTINGS_MESSAGES.cancelConfirm,
  resetMfa: MFA_RESET_MESSAGES.confirm,
};
export const confirmText = (s: MemberActionsSnapshot) => (s.matches('confirming') ? (CONFIRM[s.context.action!] ?? null) : null);
