import { useCallback, useEffect, useRef, useState } from 'react';
import type { MeterReading, RouteTask } from '../../contract/route.schema';
import { messageForError } from '../../domain/messages';
import type { RoutesApi } from './routes-api';

export type Loadable<T> = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: T; updating: boolean };

/**
 * Section 4 "Loading": the list and the readings each have a loading state, an updating state
 * (a refresh while the old data stays on screen) and an error flag; a refresh while one is in
 * flight is skipped. A failed load reads the spec's messages (section 5), never the raw server text.
 */
function useLoad<T>(load: (() => Promise<T>) | null) {
  const [state, setState] = useState<Loadable<T>>({ status: 'loading' });
  const inFlight = useRef(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const refresh = useCallback(async () => {
    if (!load || inFlight.current) return;
    inFlight.current = true;
    setState((s) => (s.status === 'ready' ? { ...s, updating: true } : { status: 'loading' }));
    try {
      const data = await load();
      if (alive.current) setState({ status: 'ready', data, updating: false });
    } catch (e) {
      if (alive.current) setState((s) => (s.status === 'ready' ? { ...s, updating: false } : { status: 'error', message: messageForError(e) }));
      if (alive.current) throw e;
    } finally {
      inFlight.current = false;
    }
  }, [load]);
  useEffect(() => {
    refresh().catch(() => {});
  }, [refresh]);
  /** Replace the data after an update answered with it (no reload). */
  const set = useCallback((f: (d: T) => T) => setState((s) => (s.status === 'ready' ? { ...s, data: f(s.data) } : s)), []);
  return { state, refresh, set };
}

export function useRouteTasks(api: RoutesApi) {
  const load = useCallback(() => api.list(), [api]);
  const { state, refresh, set } = useLoad<RouteTask[]>(load);
  const replace = useCallback((tasks: RouteTask[]) => set((all) => all.map((t) => tasks.find((n) => n.id === t.id) ?? t)), [set]);
  return { state, refresh, replace };
}

export function useTaskReadings(api: RoutesApi, taskId: string | null) {
  const load = useCallback(() => (taskId ? api.readings(taskId) : Promise.reject(new Error('unknown task'))), [api, taskId]);
  const { state, refresh, set } = useLoad<{ task: RouteTask; readings: MeterReading[] }>(taskId ? load : null);
  const replaceReading = useCallback(
    (reading: MeterReading, task: RouteTask) => set((d) => ({ task, readings: d.readings.map((r) => (r.id === reading.id ? reading : r)) })),
    [set],
  );
  const replaceTask = useCallback((task: RouteTask) => set((d) => ({ ...d, task })), [set]);
  return { state, refresh, replaceReading, replaceTask };
}

/** A value kept in localStorage (sort and filter state "remembered" across visits). */
export function usePersisted<T>(key: string, initial: T, valid: (v: unknown) => v is T = (v): v is T => v !== undefined && v !== null, where: 'local' | 'session' = 'local') {
  const store = () => (where === 'local' ? globalThis.localStorage : globalThis.sessionStorage);
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = store()?.getItem(key);
      if (raw) {
        const parsed: unknown = JSON.parse(raw);
        if (valid(parsed)) return parsed;
      }
    } catch {
      /* a broken entry falls back to the default */
    }
    return initial;
  });
  useEffect(() => {
    try {
      store()?.setItem(key, JSON.stringify(value));
    } catch {
      /* storage full or refused: remembered for this visit only */
    }
     
  }, [key, value]);
  return [value, setValue] as const;
}
