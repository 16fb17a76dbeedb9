import { createMachine, fromPromise, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { createTestModel, getStateNodes, serializeSnapshot, type TestParam } from 'xstate/graph';

/**
 * Shared by the model tests of the auth, sign-up and claim-form machines: actors the test settles
 * by hand, and the paths that cover every state and every transition of a machine.
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
  return { actors, calls, take };
}

export const flush = () => new Promise((r) => setImmediate(r));

/** A model event: a user event, or an actor's done (output) / error (error) event. */
export type ModelEvent = EventObject & { output?: unknown; error?: unknown; [key: string]: unknown };

/**
 * Replays one model event on the system under test: user events are sent to the real actor; done
 * and error events settle the pending call of that invoke's actor (`srcOf` maps invoke ids to actor names).
 */
export async function replay(actor: { send(e: never): void }, take: (src: string) => PendingCall, event: EventObject, srcOf: (id: string) => string = (id) => id) {
  const e = event as ModelEvent;
  const settled = settlement(e);
  if (!settled) {
    actor.send(e as never);
    return;
  }
  const call = take(srcOf(settled.id));
  if (settled.ok) call.resolve(e.output);
  else call.reject(e.error);
  await flush();
}

/** `xstate.done.actor.{id}` / `xstate.error.actor.{id}` -> which invoke and how it ends. */
export function settlement(event: EventObject): { id: string; ok: boolean } | null {
  const m = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
  return m ? { id: m[2], ok: m[1] === 'done' } : null;
}

type StateConfig = { invoke?: unknown; on?: Record<string, unknown>; states?: Record<string, StateConfig> } & Record<string, unknown>;
type InvokeConfig = { id: string; onDone?: unknown; onError?: unknown };

function withoutInvokes(config: StateConfig): StateConfig {
  const { invoke, on, states, ...rest } = config;
  const next: Record<string, unknown> = { ...(on ?? {}) };
  for (const inv of [invoke].flat().filter(Boolean) as InvokeConfig[]) {
    if (inv.onDone) next[`xstate.done.actor.${inv.id}`] = inv.onDone;
    if (inv.onError) next[`xstate.error.actor.${inv.id}`] = inv.onError;
  }
  const children = states && Object.fromEntries(Object.entries(states).map(([k, v]) => [k, withoutInvokes(v)]));
  return { ...rest, on: next, ...(children ? { states: children } : {}) };
}

/**
 * createTestModel walks a machine with pure transitions and refuses invocations; the model is the
 * same machine (same config, guards and actions) with each invoke's onDone/onError as the plain
 * transitions on the `xstate.done.actor.{id}` / `xstate.error.actor.{id}` events they answer.
 */
export function modelMachine<M extends AnyStateMachine>(machine: M): M {
  return createMachine(withoutInvokes(machine.config as StateConfig) as never, machine.implementations as never) as unknown as M;
}

type Model = ReturnType<typeof createTestModel>;
type Path = ReturnType<Model['getShortestPaths']>[number];

/**
 * The shortest path to every reachable state, extended so that every edge of the model's
 * adjacency map (every event the machine handles, from every state) is taken by some path.
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
      candidates.push({ ...head, state, steps, weight: head.weight + 1, description: `${head.description} → ${event.type}`, test: (params: TestParam<never, never>) => model.testPath({ state, steps, weight: head.weight + 1 }, params as never) });
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

type Transition = { source: { id: string; transitions: Map<string, unknown[]> }; eventType: string; guard?: unknown };
// Keyed by source, event and position so that snapshots of another instance of the same machine match.
const transitionKey = (t: Transition) => {
  const guard = typeof t.guard === 'string' ? ` [${t.guard}]` : t.guard ? ' [guard]' : '';
  return `${t.source.id} on ${t.eventType} #${t.source.transitions.get(t.eventType)!.indexOf(t)}${guard}`;
};

/** Every state node and every transition definition of the machine that no path reaches. */
export function uncovered(machine: AnyStateMachine, paths: Path[]) {
  const nodes = [machine.root, ...getStateNodes(machine.root)];
  const allNodes = new Set(nodes.map((n) => n.id));
  const allTransitions = new Set(nodes.flatMap((n) => [...n.transitions.values()].flat().map((t) => transitionKey(t as unknown as Transition))));
  for (const path of paths) {
    let prev: AnyMachineSnapshot | null = null;
    for (const step of path.steps) {
      const snap = step.state as AnyMachineSnapshot;
      for (const n of snap._nodes) allNodes.delete(n.id);
      if (prev && step.event.type !== 'xstate.init') {
        for (const t of machine.getTransitionData(prev as never, step.event as never)) allTransitions.delete(transitionKey(t as unknown as Transition));
      }
      prev = snap;
    }
  }
  return { states: [...allNodes], transitions: [...allTransitions] };
}
