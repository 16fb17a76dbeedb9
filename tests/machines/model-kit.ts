import { fromPromise, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type InspectionEvent } from 'xstate';
import { createTestModel, getStateNodes, serializeSnapshot, type TestParam } from 'xstate/graph';
import { expect, it } from 'vitest';
import { MODEL_PATHS } from '../docs/machine-paths';

/**
 * Shared by the model tests of the auth, sign-up and claim-form machines. Each test writes its
 * model by hand from the spec (never from the machine under test); this kit gives it actors the
 * test settles by hand, paths that take every transition of the model, and a record of which
 * states and transitions of the real machine those paths exercised.
 */

export interface PendingCall {
  src: string;
  input: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Stand-ins for a machine's promise actors: each call waits until the test resolves or rejects it. */
export function controlledActors(names: readonly string[]) {
  const calls: PendingCall[] = [];
  const actors = Object.fromEntries(
    names.map((src) => [src, fromPromise(({ input }) => new Promise((resolve, reject) => calls.push({ src, input, resolve, reject })))]),
  );
  /** The latest unsettled call of `src` (fails the test when the machine never made it). */
  const take = (src: string): PendingCall => {
    for (let i = calls.length - 1; i >= 0; i--) {
      if (calls[i].src === src) return calls.splice(i, 1)[0];
    }
    throw new Error(`expected a call to ${src}, none is pending`);
  };
  /** The latest unsettled call of `src`, left pending. */
  const peek = (src: string): PendingCall | undefined => calls.findLast((c) => c.src === src);
  return { actors, calls, take, peek };
}

export const flush = () => new Promise((r) => setImmediate(r));

type Model = ReturnType<typeof createTestModel>;
const describeEvent = ({ type, ...rest }: EventObject) => (Object.keys(rest).length ? `${type} (${JSON.stringify(rest)})` : type);
type Path = ReturnType<Model['getShortestPaths']>[number];

/**
 * The shortest path to every state of the model, extended so that every edge of the model's
 * adjacency map (every event it handles, from every state) is taken by some path.
 */
export function coveringPaths(model: Model): Path[] {
  const shortest = model.getShortestPaths({ allowDuplicatePaths: true });
  const serialize = (model.options.serializeState ?? serializeSnapshot) as (s: AnyMachineSnapshot) => string;
  const toState = new Map<string, Path>(shortest.map((p) => [serialize(p.state as AnyMachineSnapshot), p]));
  const candidates: Path[] = [...shortest];
  const adjacency = model.getAdjacencyMap() as unknown as Record<string, { transitions: Record<string, { event: EventObject; state: unknown }> }>;
  for (const [serial, { transitions }] of Object.entries(adjacency)) {
    const head = toState.get(serial);
    if (!head) continue;
    for (const { event, state } of Object.values(transitions) as { event: Path['steps'][number]['event']; state: Path['state'] }[]) {
      const steps = [...head.steps, { event, state }];
      candidates.push({ ...head, state, steps, weight: head.weight + 1, description: `${head.description} → ${describeEvent(event)}`, test: (params: TestParam<never, never>) => model.testPath({ state, steps, weight: head.weight + 1 }, params as never) });
    }
  }
  // Drop every path that is a prefix of another: the longer one tests the same steps.
  const key = (p: Path) => p.steps.map((s) => JSON.stringify(s.event)).join('|');
  const keys = candidates.map(key);
  return candidates.filter((p, i) => {
    const k = keys[i];
    return !keys.some((other, j) => j !== i && other.length > k.length && other.startsWith(k + '|')) && keys.indexOf(k) === i;
  });
}

/**
 * A few of `paths` (chosen greedily, the one adding most first) that still do everything the whole set
 * does at the level of the model's chart: visit every state node, take every transition of the model,
 * take every event (with its payload) from every state value to each state value it leads to, reach
 * every context value, and make every change of a context field that an event makes from a state
 * value. What is dropped is only the same walk again under another combination of context values
 * that no check tells apart by itself (generators that key states by their whole context, such as
 * getShortestPaths, give one path per combination: thousands for a form with a few counters).
 */
export function essentialPaths<P extends Path>(model: AnyStateMachine, paths: P[]): P[] {
  const keysOf = (path: P) => {
    const keys = new Set<string>();
    let prev: AnyMachineSnapshot | null = null;
    for (const step of path.steps) {
      const snap = step.state as AnyMachineSnapshot;
      for (const n of snap._nodes) keys.add(`state ${n.id}`);
      keys.add(`context ${JSON.stringify(snap.context)}`);
      if (prev && step.event.type !== 'xstate.init') {
        for (const t of model.getTransitionData(prev as never, step.event as never)) keys.add(`transition ${transitionKey(t as unknown as Transition)}`);
        const from = `${JSON.stringify(prev.value)} ${describeEvent(step.event)}`;
        keys.add(`edge ${from} → ${JSON.stringify(snap.value)}`);
        const before = (prev.context ?? {}) as Record<string, unknown>;
        const after = (snap.context ?? {}) as Record<string, unknown>;
        for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
          const a = JSON.stringify(before[k]);
          const b = JSON.stringify(after[k]);
          if (a !== b) keys.add(`change ${from} ${k}: ${a} → ${b}`);
        }
      }
      prev = snap;
    }
    return keys;
  };
  const items = paths.map((path, index) => ({ path, index, keys: keysOf(path), gain: 0 }));
  for (const it of items) it.gain = it.keys.size;
  const covered = new Set<string>();
  // lazy greedy over a max-heap (by gain, then first given): a path's gain only falls as others are
  // chosen, so one whose fresh gain still tops the heap is the best
  type Item = (typeof items)[number];
  const above = (a: Item, b: Item) => a.gain > b.gain || (a.gain === b.gain && a.index < b.index);
  const heap: Item[] = [];
  const push = (it: Item) => {
    let i = heap.push(it) - 1;
    while (i > 0 && above(heap[i], heap[(i - 1) >> 1])) {
      [heap[i], heap[(i - 1) >> 1]] = [heap[(i - 1) >> 1], heap[i]];
      i = (i - 1) >> 1;
    }
  };
  const pop = () => {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && above(heap[l], heap[m])) m = l;
        if (r < heap.length && above(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
    return top;
  };
  items.forEach(push);
  const chosen: Item[] = [];
  while (heap.length) {
    const it = pop();
    let gain = 0;
    for (const k of it.keys) if (!covered.has(k)) gain++;
    if (gain === 0) continue;
    if (gain < it.gain) {
      it.gain = gain;
      push(it);
      continue;
    }
    chosen.push(it);
    for (const k of it.keys) covered.add(k);
  }
  return chosen.sort((a, b) => a.index - b.index).map((c) => c.path);
}

type Transition = { source: { id: string; transitions: Map<string, unknown[]>; always?: unknown[] }; eventType: string; guard?: unknown };
// eventless (always) transitions are not in the source's event map; their position is in `always`
const siblings = (t: Transition) => t.source.transitions.get(t.eventType) ?? t.source.always ?? [];
// Keyed by source, event and position so that transitions of another instance of the same machine (.provide()) match.
const transitionKey = (t: Transition) => {
  const guard = typeof t.guard === 'string' ? ` [${t.guard}]` : t.guard ? ' [guard]' : '';
  return `${t.source.id} on ${t.eventType} #${siblings(t).indexOf(t)}${guard}`;
};
const everything = (machine: AnyStateMachine) => {
  const nodes = [machine.root, ...getStateNodes(machine.root)];
  return { states: new Set(nodes.map((n) => n.id)), transitions: new Set(nodes.flatMap((n) => [...[...n.transitions.values()].flat(), ...(n.always ?? [])].map((t) => transitionKey(t as unknown as Transition)))) };
};

/** Every state and transition of the hand-written model that no path reaches. */
export function modelUncovered(model: AnyStateMachine, paths: Path[]) {
  const left = everything(model);
  for (const path of paths) {
    let prev: AnyMachineSnapshot | null = null;
    for (const step of path.steps) {
      const snap = step.state as AnyMachineSnapshot;
      for (const n of snap._nodes) left.states.delete(n.id);
      if (prev && step.event.type !== 'xstate.init') for (const t of model.getTransitionData(prev as never, step.event as never)) left.transitions.delete(transitionKey(t as unknown as Transition));
      prev = snap;
    }
  }
  return { states: [...left.states], transitions: [...left.transitions] };
}

/**
 * Watches real actors of `machine` (pass `inspect` to createActor) and says which of its states
 * and transitions none of them went through: the model's paths must exercise the whole machine.
 */
export function machineCoverage(machine: AnyStateMachine) {
  const left = everything(machine);
  const inspect = (e: InspectionEvent) => {
    if (e.type !== '@xstate.microstep' && e.type !== '@xstate.snapshot') return;
    const snap = e.snapshot as AnyMachineSnapshot;
    for (const n of snap._nodes ?? []) left.states.delete(n.id);
    if (e.type === '@xstate.microstep') for (const t of (e as unknown as { _transitions: Transition[] })._transitions) left.transitions.delete(transitionKey(t));
  };
  return { inspect, uncovered: () => ({ states: [...left.states], transitions: [...left.transitions] }) };
}

/**
 * The paths a model test walks, with a test that their number is the one docs/machines.md gives
 * (tests/docs/machine-paths.ts): a model that gains or loses paths fails here until the page says so.
 */
export function documentedPaths<T>(key: string, paths: T[]): T[] {
  it(`walks the ${MODEL_PATHS[key] ?? '(undocumented)'} paths docs/machines.md gives for ${key}`, () => {
    expect(paths.length, `set '${key}': ${paths.length} in tests/docs/machine-paths.ts, then run npm run docs:machines`).toBe(MODEL_PATHS[key]);
  });
  return paths;
}
