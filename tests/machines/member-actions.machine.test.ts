import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type EventObject, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { confirmText, memberActionsMachine } from '../../machines/member-actions.machine';
import { memberActionNotice, ORG_SETTINGS_MESSAGES, type MemberAction, type MemberRow, type Viewer } from '../../src/domain/org-settings';
import { controlledActors, coveringPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';

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
 */
type RowName = 'self' | 'owner' | 'member' | 'admin' | 'reader' | 'invited';
const ROWS: Record<RowName, MemberRow> = {
  self: { name: 'Aroha Admin', email: 'admin@demo.test', role: 2, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000001', lastInviteAt: null },
  owner: { name: 'Olivia Owner', email: 'owner@demo.test', role: 3, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000002', lastInviteAt: null },
  member: { name: 'Manu Member', email: 'member@demo.test', role: 1, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000003', lastInviteAt: null },
  admin: { name: 'Ana Admin', email: 'ana@demo.test', role: 2, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000004', lastInviteAt: null },
  reader: { name: 'Rua Reader', email: 'reader@demo.test', role: 4, status: 'Active', cognitoIdentityId: '00000000-0000-4000-8000-000000000005', lastInviteAt: null },
  invited: { name: 'Ira Invited', email: 'invited@demo.test', role: 1, status: 'Invited', cognitoIdentityId: null, lastInviteAt: 1 },
};
const ACTIONS: MemberAction[] = ['makeAdmin', 'makeMeterReader', 'changeToMember', 'remove', 'resend', 'cancelInvite'];

/** The spec's permission table, written out for each viewer the test takes. */
interface ViewerCase {
  title: string;
  viewer: Viewer;
  allowed: Partial<Record<RowName, MemberAction[]>>;
}
const CASES: ViewerCase[] = [
  {
    title: 'an admin, meter reading on',
    viewer: { selfId: ROWS.self.cognitoIdentityId!, selfEmail: ROWS.self.email, role: 2, meterReading: true },
    allowed: {
      member: ['makeAdmin', 'makeMeterReader', 'remove'],
      admin: ['changeToMember', 'remove'],
      reader: ['changeToMember', 'remove'],
      invited: ['resend', 'cancelInvite'],
    },
  },
  {
    title: 'an admin, no meter reading',
    viewer: { selfId: ROWS.self.cognitoIdentityId!, selfEmail: ROWS.self.email, role: 2, meterReading: false },
    allowed: { member: ['makeAdmin', 'remove'], admin: ['changeToMember', 'remove'], reader: ['changeToMember', 'remove'], invited: ['resend', 'cancelInvite'] },
  },
  // a member and a meter reader see the list with no action at all
  { title: 'a member', viewer: { selfId: ROWS.self.cognitoIdentityId!, selfEmail: ROWS.self.email, role: 1, meterReading: true }, allowed: {} },
  { title: 'a meter reader', viewer: { selfId: ROWS.self.cognitoIdentityId!, selfEmail: ROWS.self.email, role: 4, meterReading: true }, allowed: {} },
];

type Outcome = 'done' | 'failed' | 'tooMany';
interface M {
  row: RowName | null;
  action: MemberAction | null;
  notice: { action: MemberAction; row: RowName; outcome: Outcome } | null;
  reloaded: boolean;
}
type ModelEvent = { type: 'ACT'; action: MemberAction; row: RowName } | { type: 'CONFIRM' } | { type: 'DISMISS' } | { type: 'OK' } | { type: 'FAIL' } | { type: 'TOO_MANY' };

function memberActionsModel(c: ViewerCase) {
  const may = (e: ModelEvent) => e.type === 'ACT' && (c.allowed[e.row] ?? []).includes(e.action);
  const asks = (e: ModelEvent) => e.type === 'ACT' && (e.action === 'remove' || e.action === 'cancelInvite');
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
  return [...acts.filter((e) => (c.allowed[e.row] ?? []).includes(e.action)), ...refused, { type: 'CONFIRM' }, { type: 'DISMISS' }, { type: 'OK' }, { type: 'FAIL' }, { type: 'TOO_MANY' }];
}

function start(viewer: Viewer, inspect?: ReturnType<typeof machineCoverage>['inspect']) {
  const ctl = controlledActors(['perform']);
  const actor = createActor(memberActionsMachine.provide({ actors: ctl.actors }), { input: { viewer }, inspect }).start();
  return { ctl, actor };
}
type H = ReturnType<typeof start>;

async function drive({ ctl, actor }: H, e: ModelEvent) {
  if (e.type === 'ACT') actor.send({ type: 'ACT', action: e.action, member: ROWS[e.row] });
  else if (e.type === 'OK' || e.type === 'FAIL' || e.type === 'TOO_MANY') {
    if (ctl.peek('perform')) {
      const call = ctl.take('perform');
      if (e.type === 'OK') call.resolve({});
      else if (e.type === 'TOO_MANY') call.reject({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'TOO_MANY_REQUESTS: an invitation can be sent at most once every 10 minutes.' });
      else call.reject({ status: 500, code: 'INTERNAL_ERROR', message: 'Internal error' });
    }
  } else actor.send(e);
  await flush();
}

function expectedNotice(n: NonNullable<M['notice']>): { kind: 'success' | 'error'; text: string } {
  const m = ROWS[n.row];
  if (n.outcome === 'done') return { kind: 'success', text: memberActionNotice.done(n.action, m) };
  if (n.action === 'resend') return { kind: 'error', text: n.outcome === 'tooMany' ? ORG_SETTINGS_MESSAGES.resendTooMany : ORG_SETTINGS_MESSAGES.resendFailed };
  return { kind: 'error', text: memberActionNotice.failed(n.action, false) };
}

function check({ ctl, actor }: H, expected: ModelSnap) {
  const real = actor.getSnapshot();
  const m = expected.context;
  const at = String(expected.value);
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
  const paths = documentedPaths(`member-actions (${c.title})`, coveringPaths(createTestModel(model, { events })));
  const coverage = machineCoverage(memberActionsMachine);

  it('the paths reach every state and take every transition of the model', () => {
    const uncovered = modelUncovered(model, paths);
    if (Object.keys(c.allowed).length) expect(uncovered).toEqual({ states: [], transitions: [] });
    else expect(uncovered.states.sort(), 'no action: nothing but idle is reachable').toEqual(['rows.asking', 'rows.sending']);
  });

  it(`every path (${paths.length}) agrees with the model`, async () => {
    const failures: string[] = [];
    for (const path of paths) {
      const h = start(c.viewer, coverage.inspect);
      const exec = ({ event }: { event: EventObject }) => drive(h, event as ModelEvent);
      try {
        await path.test({ events: Object.fromEntries(['ACT', 'CONFIRM', 'DISMISS', 'OK', 'FAIL', 'TOO_MANY'].map((t) => [t, exec])) as never, states: { '*': (s) => check(h, s as ModelSnap) } });
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
