import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type EventObject, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { confirmText, memberActionsMachine } from '../../machines/member-actions.machine';
import { memberActionNotice, ORG_SETTINGS_MESSAGES, type MemberAction, type MemberRow, type Viewer } from '../../src/domain/org-settings';
import { controlledActors, coveringPaths, essentialPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';

/**
 * The member list's row actions, modelled from organisation-and-routes 2.1, 4, 6 and 8 (not from
 * the machine):
 * - managers only, never on their own row; invited rows: Resend Invitation, Cancel Invitation;
 *   a member can become admin, or meter reader when the organisation has meter reading; an admin
 *   or meter reader can become member; the owner's role cannot be changed (nor the owner removed).
 * - Remove asks "Are you sure you want to remove this member?", Cancel Invitation "Are you sure
 *   you want to cancel this invitation?"; role changes and resend go at once.
 * - Resend: success notice with the email; TOO_MANY_REQUESTS: the too-many-attempts notice (once
 *   per 10 minutes); other errors: the generic resend notice.
 * - The list is read again after every action that reached the server, except a too-many refusal.
 * - Issue 35: the organisation's owner and site admins (whatever their role here) may reset the
 *   two-factor authentication of an active member who has it on, never their own; it asks first,
 *   saying the member must set up an authenticator again and their recovery codes stop working;
 *   a refusal (403, 404, 409) shows the server's reason, any other failure a generic notice.
 */
type RowName = 'self' | 'owner' | 'member' | 'admin' | 'reader' | 'invited' | 'twoFactor';
const ROWS: Record<RowName, MemberRow> = {
  self: { name: 'Aroha Admin', email: 'admin@demo.test', role: 2, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000001', lastInviteAt: null, mfaEnabled: true },
  owner: { name: 'Olivia Owner', email: 'owner@demo.test', role: 3, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000002', lastInviteAt: null, mfaEnabled: true },
  member: { name: 'Manu Member', email: 'member@demo.test', role: 1, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000003', lastInviteAt: null, mfaEnabled: false },
  admin: { name: 'Ana Admin', email: 'ana@demo.test', role: 2, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000004', lastInviteAt: null },
  reader: { name: 'Rua Reader', email: 'reader@demo.test', role: 4, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000005', lastInviteAt: null },
  invited: { name: 'Ira Invited', email: 'invited@demo.test', role: 1, status: 'Invited', cognitoIdentityId: null, lastInviteAt: 1 },
  twoFactor: { name: 'Tia Twofactor', email: 'tia@demo.test', role: 1, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000006', lastInviteAt: null, mfaEnabled: true },
};
const ACTIONS: MemberAction[] = ['makeAdmin', 'makeMeterReader', 'changeToMember', 'remove', 'resend', 'cancelInvite', 'resetMfa'];

/** The spec's permission table, written out for each viewer the test takes. */
interface ViewerCase {
  title: string;
  viewer: Viewer;
  allowed: Partial<Record<RowName, MemberAction[]>>;
}
const as = (row: RowName) => ({ selfId: ROWS[row].cognitoIdentityId!, selfEmail: ROWS[row].email });
const CASES: ViewerCase[] = [
  {
    title: 'an admin, meter reading on',
    viewer: { ...as('self'), role: 2, meterReading: true, siteAdmin: false },
    allowed: {
      member: ['makeAdmin', 'makeMeterReader', 'remove'],
      admin: ['changeToMember', 'remove'],
      reader: ['changeToMember', 'remove'],
      invited: ['resend', 'cancelInvite'],
      twoFactor: ['makeAdmin', 'makeMeterReader', 'remove'], // an admin resets no one's two-factor authentication
    },
  },
  {
    title: 'an admin, no meter reading',
    viewer: { ...as('self'), role: 2, meterReading: false, siteAdmin: false },
    allowed: { member: ['makeAdmin', 'remove'], admin: ['changeToMember', 'remove'], reader: ['changeToMember', 'remove'], invited: ['resend', 'cancelInvite'], twoFactor: ['makeAdmin', 'remove'] },
  },
  // a member and a meter reader see the list with no action at all
  { title: 'a member', viewer: { ...as('self'), role: 1, meterReading: true, siteAdmin: false }, allowed: {} },
  { title: 'a meter reader', viewer: { ...as('self'), role: 4, meterReading: true, siteAdmin: false }, allowed: {} },
  {
    // the owner resets the two-factor authentication of anyone with it on but themself
    title: 'the owner',
    viewer: { ...as('owner'), role: 3, meterReading: false, siteAdmin: false },
    allowed: {
      self: ['changeToMember', 'remove', 'resetMfa'],
      member: ['makeAdmin', 'remove'],
      admin: ['changeToMember', 'remove'],
      reader: ['changeToMember', 'remove'],
      invited: ['resend', 'cancelInvite'],
      twoFactor: ['makeAdmin', 'remove', 'resetMfa'],
    },
  },
  // a site admin who is a plain member here: the reset only, the owner's too
  { title: 'a site admin, a member here', viewer: { ...as('member'), role: 1, meterReading: false, siteAdmin: true }, allowed: { self: ['resetMfa'], owner: ['resetMfa'], twoFactor: ['resetMfa'] } },
];

type Outcome = 'done' | 'failed' | 'tooMany' | 'refused';
interface M {
  row: RowName | null;
  action: MemberAction | null;
  notice: { action: MemberAction; row: RowName; outcome: Outcome } | null;
  reloaded: boolean;
}
type ModelEvent = { type: 'ACT'; action: MemberAction; row: RowName } | { type: 'CONFIRM' } | { type: 'DISMISS' } | { type: 'OK' } | { type: 'FAIL' } | { type: 'TOO_MANY' } | { type: 'REFUSE' };

function memberActionsModel(c: ViewerCase) {
  const may = (e: ModelEvent) => e.type === 'ACT' && (c.allowed[e.row] ?? []).includes(e.action);
  const asks = (e: ModelEvent) => e.type === 'ACT' && (e.action === 'remove' || e.action === 'cancelInvite' || e.action === 'resetMfa');
  const end = (outcome: Outcome, reload: boolean) =>
    // (typed for any event: the three outcomes share it)
    assign(({ context }: { context: M }) => ({ notice: { action: context.action!, row: context.row!, outcome }, reloaded: context.reloaded || reload, row: null, action: null })) as never;
  return setup({ types: { context: {} as M, events: {} as ModelEvent } }).createMachine({
    id: 'rows',
    context: { row: null, action: null, notice: null, reloaded: false },
    initial: 'idle',
    states: {
      idle: {
        on: {
          ACT: [
            { guard: ({ event }) => may(event) && asks(event), target: 'asking', actions: assign(({ event }) => ({ row: event.row, action: event.action, notice: null })) },
            { guard: ({ event }) => may(event), target: 'sending', actions: assign(({ event }) => ({ row: event.row, action: event.action, notice: null })) },
          ],
        },
      },
      asking: { on: { CONFIRM: 'sending', DISMISS: { target: 'idle', actions: assign({ row: null, action: null }) } } },
      sending: {
        on: {
          OK: { target: 'idle', actions: end('done', true) },
          FAIL: { target: 'idle', actions: end('failed', true) },
          TOO_MANY: { target: 'idle', actions: end('tooMany', false) },
          // a 4xx refusal: a reset names the server's reason; the other actions fail as FAIL does
          REFUSE: [
            { guard: ({ context }) => context.action === 'resetMfa', target: 'idle', actions: end('refused', true) },
            { target: 'idle', actions: end('failed', true) },
          ],
        },
      },
    },
  });
}
type ModelSnap = SnapshotFrom<ReturnType<typeof memberActionsModel>>;

function eventsFor(c: ViewerCase): ModelEvent[] {
  const acts = (Object.keys(ROWS) as RowName[]).flatMap((row) => ACTIONS.map((action) => ({ type: 'ACT' as const, action, row })));
  // every action the spec allows, and a sample of refused ones (each refused kind at least once)
  const refused = acts.filter((e) => !(c.allowed[e.row] ?? []).includes(e.action));
  return [...acts.filter((e) => (c.allowed[e.row] ?? []).includes(e.action)), ...refused, { type: 'CONFIRM' }, { type: 'DISMISS' }, { type: 'OK' }, { type: 'FAIL' }, { type: 'TOO_MANY' }, { type: 'REFUSE' }];
}

function start(viewer: Viewer, inspect?: ReturnType<typeof machineCoverage>['inspect']) {
  const ctl = controlledActors(['perform']);
  const actor = createActor(memberActionsMachine.provide({ actors: ctl.actors }), { input: { viewer }, inspect }).start();
  return { ctl, actor };
}
type H = ReturnType<typeof start>;

async function drive({ ctl, actor }: H, e: ModelEvent) {
  if (e.type === 'ACT') actor.send({ type: 'ACT', action: e.action, member: ROWS[e.row] });
  else if (e.type === 'OK' || e.type === 'FAIL' || e.type === 'TOO_MANY' || e.type === 'REFUSE') {
    if (ctl.peek('perform')) {
      const call = ctl.take('perform');
      if (e.type === 'OK') call.resolve({});
      else if (e.type === 'REFUSE') call.reject({ status: 409, code: 'MFA_NOT_SET_UP', message: 'This member has no two-factor authentication to reset.' });
      else if (e.type === 'TOO_MANY') call.reject({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'TOO_MANY_REQUESTS: an invitation can be sent at most once every 10 minutes.' });
      else call.reject({ status: 500, code: 'INTERNAL_ERROR', message: 'Internal error' });
    }
  } else actor.send(e);
  await flush();
}

function expectedNotice(n: NonNullable<M['notice']>): { kind: 'success' | 'error'; text: string } {
  const m = ROWS[n.row];
  if (n.action === 'resetMfa') {
    if (n.outcome === 'done') return { kind: 'success', text: `The two-factor authentication of ${m.name} has been reset.` };
    if (n.outcome === 'refused') return { kind: 'error', text: 'This member has no two-factor authentication to reset.' };
    return { kind: 'error', text: 'Resetting two-factor authentication failed. Please check your internet connection and try again later.' };
  }
  if (n.outcome === 'done') return { kind: 'success', text: memberActionNotice.done(n.action, m) };
  if (n.action === 'resend') return { kind: 'error', text: n.outcome === 'tooMany' ? ORG_SETTINGS_MESSAGES.resendTooMany : ORG_SETTINGS_MESSAGES.resendFailed };
  return { kind: 'error', text: memberActionNotice.failed(n.action, false) };
}

function check({ ctl, actor }: H, expected: ModelSnap) {
  const real = actor.getSnapshot();
  const m = expected.context;
  const at = String(expected.value);
  if (at === 'asking' && m.action === 'resetMfa') {
    expect(confirmText(real), `${at}: the confirmation says what a reset does`).toMatch(/set up an authenticator again/);
    expect(confirmText(real)).toMatch(/recovery codes stop working/);
  } else
    expect(confirmText(real), `${at}: the confirmation`).toBe(
      at === 'asking' ? (m.action === 'remove' ? 'Are you sure you want to remove this member?' : 'Are you sure you want to cancel this invitation?') : null,
    );
  expect(real.matches('working'), `${at}: busy`).toBe(at === 'sending');
  expect(real.context.changes > 0, 'the list was read again').toBe(m.reloaded);
  expect(real.context.notice).toEqual(m.notice ? expectedNotice(m.notice) : null);
  if (m.notice?.action === 'resend' && m.notice.outcome === 'done') expect(real.context.notice?.text).toContain(ROWS[m.notice.row].email);
  expect(ctl.calls.map((x) => x.src)).toEqual(at === 'sending' ? ['perform'] : []);
  if (at === 'sending') expect(ctl.calls[0].input).toEqual({ action: m.action, member: ROWS[m.row!] });
}

describe.each(CASES)('member actions machine against its model, viewer $title (organisation-and-routes 2.1, 4, 6, 8)', (c) => {
  const model = memberActionsModel(c);
  const events = eventsFor(c);
  const paths = documentedPaths(`member-actions (${c.title})`, essentialPaths(model, coveringPaths(createTestModel(model, { events }))));
  const coverage = machineCoverage(memberActionsMachine);

  it('the paths reach every state and take every transition of the model', () => {
    const uncovered = modelUncovered(model, paths);
    // a transition no allowed action can take: a reset's refusal for a viewer who may reset no one,
    // an action that goes at once or fails as FAIL does for one who may only reset
    const allowed = Object.values(c.allowed).flat();
    const unreachable = [
      ...(allowed.some((a) => a !== 'remove' && a !== 'cancelInvite' && a !== 'resetMfa') ? [] : ['rows.idle on ACT #1 [guard]']),
      ...(allowed.includes('resetMfa') ? [] : ['rows.sending on REFUSE #0 [guard]']),
      ...(allowed.some((a) => a !== 'resetMfa') ? [] : ['rows.sending on REFUSE #1']),
    ];
    if (allowed.length) expect(uncovered).toEqual({ states: [], transitions: unreachable });
    else expect(uncovered.states.sort(), 'no action: nothing but idle is reachable').toEqual(['rows.asking', 'rows.sending']);
  });

  it(`every path (${paths.length}) agrees with the model`, async () => {
    const failures: string[] = [];
    for (const path of paths) {
      const h = start(c.viewer, coverage.inspect);
      const exec = ({ event }: { event: EventObject }) => drive(h, event as ModelEvent);
      try {
        await path.test({ events: Object.fromEntries(['ACT', 'CONFIRM', 'DISMISS', 'OK', 'FAIL', 'TOO_MANY', 'REFUSE'].map((t) => [t, exec])) as never, states: { '*': (s) => check(h, s as ModelSnap) } });
      } catch (err) {
        failures.push(`${path.description}\n  ${(err as Error).message.split('\n')[0]}`);
      }
      h.actor.stop();
    }
    expect(failures.length, failures.slice(0, 5).join('\n')).toBe(0);
  }, 300_000);

  if (c.title === 'an admin, meter reading on')
    it('the paths exercised every state and transition of the real machine (but the viewer update)', () => {
      const left = coverage.uncovered();
      expect(left.states).toEqual([]);
      expect(left.transitions.filter((t) => !t.includes('on VIEWER'))).toEqual([]);
    });
});

describe('a refused reset of two-factor authentication shows the server’s reason (issue 35)', () => {
  // POST .../reset-mfa's refusals as tests/server/member-mfa-reset.test.ts gets them from the server
  const REFUSALS: [number, string, string][] = [
    [403, 'FORBIDDEN', 'You do not have permission to do this.'],
    [404, 'ORGANISATION_NOT_FOUND', 'Organisation not found.'],
    [404, 'MEMBER_NOT_FOUND', 'This person is not a member of the organisation.'],
    [403, 'SITE_ADMIN_PROTECTED', 'Only a site admin can reset the two-factor authentication of a site admin.'],
    [403, 'CANNOT_ACT_ON_SELF', 'Turn your own two-factor authentication off in Account settings.'],
    [409, 'MFA_NOT_SET_UP', 'This member has no two-factor authentication to reset.'],
  ];
  it.each(REFUSALS)('%i %s', async (status, code, message) => {
    const h = start({ ...as('owner'), role: 3, meterReading: false, siteAdmin: false });
    h.actor.send({ type: 'ACT', action: 'resetMfa', member: ROWS.twoFactor });
    h.actor.send({ type: 'CONFIRM' });
    await flush();
    h.ctl.take('perform').reject({ status, code, message });
    await flush();
    expect(h.actor.getSnapshot().context.notice).toEqual({ kind: 'error', text: message });
    expect(h.actor.getSnapshot().context.changes, 'the list is read again').toBe(1);
    h.actor.stop();
  });
});
