import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, SimulatedClock, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { readerSyncMachine, type Capture } from '../../machines/reader-sync.machine';
import { controlledActors, coveringPaths, essentialPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';

/**
 * The meter reader app's upload queue, modelled from issue 33's "Sync" (not from the machine):
 * - recorded readings queue on the device and upload in order (the first capture not yet sent
 *   or refused is the one being sent; a later one never overtakes it);
 * - with retries and backoff: a failed send (network) is tried again after a wait that doubles
 *   (2 s, 4 s, ...), or at once when the reader asks; offline nothing is sent, and coming back
 *   online sends at once;
 * - a reader on a bad signal expects the queue to drain soon after the signal returns, also when
 *   the browser never said it was offline (no `online` event): the wait is capped at 30 s, and
 *   when the server is seen to answer again (REACHABLE) a backing-off send is tried at once; a
 *   send under way or an empty queue is left as it is (never a second request for one capture);
 * - each capture carries an idempotency key, the same on every retry;
 * - the screen shows what is waiting, sending, sent or refused;
 * - a refusal (reading already recorded by someone else, task unassigned or exported) keeps the
 *   reader's copy visible with the server's reason, and the queue goes on with the next capture;
 *   nothing is dropped (the device's copy always holds every capture);
 * - the reader dismisses a refused capture (kept with the server's reason until dismissed), and
 *   removing a task from the device drops its sent captures; a waiting or sending one is never
 *   removed, and the send under way goes on.
 */

type Status = Capture['status'];
interface M {
  caps: Status[];
  /** Which capture each one is (the n-th made): its key and value. */
  ids: number[];
  made: number;
  /** Failed sends of the capture at the head of the queue. */
  attempts: number;
}
const MAX_CAPTURES = 3;
const MAX_FAILS = 2;
const head = (m: M) => m.caps.findIndex((s) => s === 'waiting' || s === 'sending');
const withHead = (m: M, s: Status) => m.caps.map((c, i) => (i === head(m) ? s : c));
const startNext = (caps: Status[]) => {
  const i = caps.indexOf('waiting');
  return caps.map((c, j) => (j === i ? 'sending' : c));
};
const hasWaiting = ({ context }: { context: M }) => context.caps.includes('waiting');
const canCapture = ({ context }: { context: M }) => context.made < MAX_CAPTURES;
const made = { ids: ({ context }: { context: M }) => [...context.ids, context.made], made: ({ context }: { context: M }) => context.made + 1 };
const add = assign({ caps: ({ context }: { context: M }) => [...context.caps, 'waiting' as Status], ...made }) as never;
const addAndSend = assign({ caps: ({ context }: { context: M }) => startNext([...context.caps, 'waiting' as Status]), ...made }) as never;
/** Keeps the captures for which `keep` holds (a status), with their ids. */
const keepOnly = (keep: (s: Status, i: number, m: M) => boolean) =>
  assign({ caps: ({ context }: { context: M }) => context.caps.filter((c, i) => keep(c, i, context)), ids: ({ context }: { context: M }) => context.ids.filter((_, i) => keep(context.caps[i]!, i, context)) }) as never;
const firstRefused = (m: M) => m.caps.indexOf('refused');
// after a settled send: the next waiting capture is sent, in order
const settled = (s: Status) => [
  { guard: ({ context }: { context: M }) => context.caps.filter((c) => c === 'waiting').length > 0, target: 'sending', actions: assign({ caps: ({ context }: { context: M }) => startNext(withHead(context, s)), attempts: 0 }) },
  { target: 'idle', actions: assign({ caps: ({ context }: { context: M }) => withHead(context, s), attempts: 0 }) },
];

const model = setup({ types: { context: {} as M } }).createMachine({
  id: 'readerSyncModel',
  context: { caps: [], ids: [], made: 0, attempts: 0 },
  initial: 'idle',
  on: {
    // the first refused capture dismissed; removing the task drops every sent one
    DISMISS: { guard: ({ context }) => context.caps.includes('refused'), actions: keepOnly((_, i, m) => i !== firstRefused(m)) },
    FORGET_SENT: { guard: ({ context }) => context.caps.includes('sent'), actions: keepOnly((c) => c !== 'sent') },
  },
  states: {
    idle: {
      on: {
        CAPTURE: { guard: canCapture, target: 'sending', actions: addAndSend },
        GO_OFFLINE: 'offline',
        REACHABLE: { actions: () => {} }, // nothing changes: no second request, nothing sent from an empty queue
      },
    },
    sending: {
      on: {
        CAPTURE: { guard: canCapture, actions: add },
        UPLOAD_OK: settled('sent') as never,
        UPLOAD_REFUSED: settled('refused') as never,
        UPLOAD_FAILS: { guard: ({ context }) => context.attempts < MAX_FAILS, target: 'backoff', actions: assign({ caps: ({ context }) => withHead(context, 'waiting'), attempts: ({ context }) => context.attempts + 1 }) },
        GO_OFFLINE: { target: 'offline', actions: assign({ caps: ({ context }) => withHead(context, 'waiting') }) },
        REACHABLE: { actions: () => {} }, // nothing changes: no second request, nothing sent from an empty queue
      },
    },
    backoff: {
      on: {
        CAPTURE: { guard: canCapture, actions: add },
        BACKOFF_ELAPSED: { target: 'sending', actions: assign({ caps: ({ context }) => startNext(context.caps) }) },
        RETRY: { target: 'sending', actions: assign({ caps: ({ context }) => startNext(context.caps) }) },
        REACHABLE: { target: 'sending', actions: assign({ caps: ({ context }) => startNext(context.caps) }) },
        GO_OFFLINE: 'offline',
      },
    },
    offline: {
      on: {
        CAPTURE: { guard: canCapture, actions: add },
        GO_ONLINE: [{ guard: hasWaiting, target: 'sending', actions: assign({ caps: ({ context }) => startNext(context.caps) }) }, { target: 'idle' }],
      },
    },
  },
});
type ModelSnap = SnapshotFrom<typeof model>;

const REFUSAL = { status: 409, code: 'READING_ALREADY_RECORDED', message: 'This meter reading has already been recorded.' };
const keyOf = (i: number) => `capture-${i}-5f0c`;

const coverage = machineCoverage(readerSyncMachine);

function start() {
  const { actors, calls, take } = controlledActors(['upload']);
  const clock = new SimulatedClock();
  const persisted: Capture[][] = [];
  const machine = readerSyncMachine.provide({ actors, actions: { persist: (_, p: { captures: Capture[] }) => void persisted.push(p.captures) } });
  const actor = createActor(machine, { input: { captures: [], online: true }, clock, inspect: coverage.inspect }).start();
  return { actor, calls, take, clock, persisted, captured: 0, fails: 0 };
}
type H = ReturnType<typeof start>;

async function drive(h: H, type: string, state: ModelSnap) {
  // the covering paths also try events the model refuses (a fourth capture, a third failure): the world does not produce them
  if (!state.can({ type } as never)) return;
  const m = state.context;
  switch (type) {
    case 'CAPTURE': {
      const i = h.captured++;
      h.actor.send({ type: 'CAPTURE', capture: { id: keyOf(i), orgId: 'o', taskId: 't', readingId: `r${i}`, body: { value: 100 + i, recordedAt: 1_000 + i }, capturedAt: 1_000 + i } });
      break;
    }
    case 'UPLOAD_OK':
      h.take('upload').resolve({});
      break;
    case 'UPLOAD_REFUSED':
      h.take('upload').reject(REFUSAL);
      break;
    case 'UPLOAD_FAILS':
      h.take('upload').reject({ message: 'Failed to fetch' });
      break;
    case 'BACKOFF_ELAPSED': {
      // the wait doubles with each failed send of the same capture: 2 s, then 4 s
      const wait = 2_000 * 2 ** (m.attempts - 1);
      h.clock.increment(wait - 1);
      await flush();
      expect(h.calls.length, 'nothing is sent before the backoff is over').toBe(0);
      h.clock.increment(1);
      break;
    }
    case 'RETRY':
      h.actor.send({ type: 'RETRY' });
      break;
    case 'REACHABLE':
      h.actor.send({ type: 'REACHABLE' });
      break;
    case 'GO_OFFLINE':
      h.actor.send({ type: 'OFFLINE' });
      // the request under way fails with the network; nobody answers it
      h.calls.length = 0;
      break;
    case 'GO_ONLINE':
      h.actor.send({ type: 'ONLINE' });
      break;
    case 'DISMISS': {
      const refused = h.actor.getSnapshot().context.captures.find((c) => c.status === 'refused')!;
      // a waiting or sent capture is not dismissed
      for (const other of h.actor.getSnapshot().context.captures.filter((c) => c.status !== 'refused')) h.actor.send({ type: 'DISMISS', id: other.id });
      h.actor.send({ type: 'DISMISS', id: refused.id });
      break;
    }
    case 'FORGET_SENT':
      h.actor.send({ type: 'FORGET_SENT', taskId: 'another task' }); // another task's removal leaves these alone
      h.actor.send({ type: 'FORGET_SENT', taskId: 't' });
      break;
  }
  await flush();
}

/** What the reader sees and what the server receives match the model. */
function check(h: H, state: ModelSnap) {
  const m = state.context;
  const { captures } = h.actor.getSnapshot().context;
  expect(captures.map((c) => c.status)).toEqual(m.caps);
  expect(captures.map((c) => c.id)).toEqual(m.ids.map(keyOf));
  // the server's reason stays with a refused capture
  for (const c of captures) expect(c.refusal).toEqual(c.status === 'refused' ? { code: REFUSAL.code, message: REFUSAL.message } : null);
  // exactly the head of the queue is on the wire while sending, with its own key; nothing otherwise
  if (state.value === 'sending') {
    expect(h.calls.length).toBe(1);
    expect((h.calls[0]!.input as Capture).id).toBe(keyOf(m.ids[head(m)]!));
    expect((h.calls[0]!.input as Capture).body.value).toBe(100 + m.ids[head(m)]!);
  } else {
    expect(h.calls.length).toBe(0);
  }
  // the device's copy holds every capture as shown (nothing is dropped but what the reader removed)
  if (m.made) expect(h.persisted.at(-1)!.map((c) => [c.id, c.status])).toEqual(captures.map((c) => [c.id, c.status]));
}

const EVENTS = ['CAPTURE', 'UPLOAD_OK', 'UPLOAD_REFUSED', 'UPLOAD_FAILS', 'BACKOFF_ELAPSED', 'RETRY', 'REACHABLE', 'GO_OFFLINE', 'GO_ONLINE', 'DISMISS', 'FORGET_SENT'];

describe('reader-sync machine against its model (issue 33 "Sync")', () => {
  const testModel = createTestModel(model);
  const paths = documentedPaths('reader-sync', essentialPaths(model, coveringPaths(testModel)));

  it('the paths take every state and transition of the model', () => {
    expect(modelUncovered(model, paths)).toEqual({ states: [], transitions: [] });
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const h = start();
    let last = model.getInitialSnapshot(undefined as never) as ModelSnap;
    await path.test({
      events: Object.fromEntries(EVENTS.map((t) => [t, () => drive(h, t, last)])) as never,
      states: {
        '*': (state) => {
          last = state as ModelSnap;
          check(h, last);
        },
      },
    });
    h.actor.stop();
  });

  it('a queue restored from the device: in capture order, a capture that was being sent is waiting again and goes first with its own key', async () => {
    const { actors, calls } = controlledActors(['upload']);
    const base = { orgId: 'o', taskId: 't', body: { value: 1, recordedAt: 1 }, attempts: 0, refusal: null };
    const restored: Capture[] = [
      { ...base, id: 'k-later-000', readingId: 'b', capturedAt: 20, status: 'waiting' },
      { ...base, id: 'k-refused-0', readingId: 'c', capturedAt: 5, status: 'refused', refusal: { code: 'TASK_EXPORTED', message: 'This route task has been exported.' } },
      { ...base, id: 'k-first-000', readingId: 'a', capturedAt: 10, status: 'sending' },
    ];
    const actor = createActor(readerSyncMachine.provide({ actors }), { input: { captures: restored, online: true } }).start();
    await flush();
    expect(actor.getSnapshot().context.captures.map((c) => [c.id, c.status])).toEqual([
      ['k-refused-0', 'refused'],
      ['k-first-000', 'sending'],
      ['k-later-000', 'waiting'],
    ]);
    expect(calls.map((c) => (c.input as Capture).id)).toEqual(['k-first-000']);
    actor.stop();
  });

  it('a long outage while the browser says online: the tries come 2 s, 4 s, 8 s, 16 s apart, then every 30 s at most, so the queue drains within 30 s of the signal returning', async () => {
    const { actors, calls, take } = controlledActors(['upload']);
    const clock = new SimulatedClock();
    const base = { orgId: 'o', taskId: 't', readingId: 'r', body: { value: 1, recordedAt: 1 }, capturedAt: 1, attempts: 0, refusal: null };
    const actor = createActor(readerSyncMachine.provide({ actors }), { input: { captures: [{ ...base, id: 'k-long-out', status: 'waiting' }], online: true }, clock }).start();
    await flush();
    const waits = [2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000];
    for (const wait of waits) {
      take('upload').reject({ message: 'Failed to fetch' });
      await flush();
      clock.increment(wait - 1);
      await flush();
      expect(calls.length, `nothing is sent before ${wait} ms`).toBe(0);
      clock.increment(1);
      await flush();
      expect(calls.length, `the next try comes after ${wait} ms`).toBe(1);
    }
    // the signal is back: the try under way records
    take('upload').resolve({});
    await flush();
    expect(actor.getSnapshot().context.captures.map((c) => c.status)).toEqual(['sent']);
    actor.stop();
  });

  it('the paths went through every state and transition of the machine', () => {
    expect(coverage.uncovered()).toEqual({ states: [], transitions: [] });
  });
});
