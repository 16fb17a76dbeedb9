import { useCallback, useEffect, useReducer, useRef } from 'react';
import { createActor, fromPromise, type Actor } from 'xstate';
import { remoteTaskMachine, type RemoteTaskContext } from '../../../../machines/remote-task.machine';
import type { DownlinkTask } from '../../../contract/downlink-task.schema';

export type TaskActor = Actor<typeof remoteTaskMachine>;
export type Notice = NonNullable<RemoteTaskContext['notice']>;

/**
 * One remote-task actor per task, owned by the Remote Tasks section rather than by a row. A
 * cancelled task moves from the Queued list to the Completed one, and the live message that moves
 * it can arrive before the cancel call's answer: a row's own actor would be stopped with the row,
 * and the answer ("Remote task canceled.", or the failure) never announced. Here the actor outlives
 * the row's move; its notices go to `announce`. Actors of tasks no longer listed are stopped, unless
 * a cancel is in flight; all are stopped with the section.
 */
export function useTaskActors(cancel: (taskId: string) => Promise<unknown>, announce: (notice: Notice) => void) {
  const actors = useRef(new Map<string, TaskActor>());
  const calls = useRef({ cancel, announce });
  calls.current = { cancel, announce };

  const actorFor = useCallback((task: DownlinkTask): TaskActor => {
    const known = actors.current.get(task.id);
    if (known) return known;
    const machine = remoteTaskMachine.provide({ actors: { cancel: fromPromise(() => calls.current.cancel(task.id)) } });
    const actor = createActor(machine, { input: { status: task.status } });
    let last: Notice | null = null;
    actor.subscribe((s) => {
      const notice = s.context.notice;
      if (notice && notice !== last) calls.current.announce(notice);
      last = notice;
    });
    actors.current.set(task.id, actor.start());
    return actor;
  }, []);

  /** Stops the actors of tasks not in `listed` (the lists as last loaded), keeping any cancel in flight. */
  const prune = useCallback((listed: readonly DownlinkTask[]) => {
    const ids = new Set(listed.map((t) => t.id));
    for (const [id, actor] of actors.current) {
      if (ids.has(id) || actor.getSnapshot().matches('canceling')) continue;
      actor.stop();
      actors.current.delete(id);
    }
  }, []);

  // stopped with the section; a remount (StrictMode's second mount) renders again with new actors
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const stopped = useRef(false);
  useEffect(() => {
    const all = actors.current;
    if (stopped.current) {
      stopped.current = false;
      rerender();
    }
    return () => {
      for (const actor of all.values()) actor.stop();
      all.clear();
      stopped.current = true;
    };
  }, []);

  return { actorFor, prune };
}
