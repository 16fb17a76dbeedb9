import { useEffect, useMemo, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { notifications } from '@mantine/notifications';
import { sensorSaveMachine, type Checked } from '../../../machines/sensor-save.machine';
import { sensorUpdateResponseSchema, type Sensor, type SensorUpdateRequest } from '../../contract/sensor.schema';
import { api } from '../../shared/api';

/** Notices disappear after 4 s (DESIGN.md). */
export const NOTICE_MS = 4_000;

interface Options<V> {
  sensor: Sensor;
  orgId: string;
  initial: V;
  check(values: V): Checked<SensorUpdateRequest>;
  valuesOf(saved: Sensor): V;
  successMessage: string;
  failureMessage(error: unknown): string;
  onSaved(sensor: Sensor): void;
  /** Field errors show as the user edits, before any Update. */
  liveErrors?: boolean;
}

/** A section's form on the save machine: the one PUT, its notices, and the saved sensor handed on. */
export function useSectionSave<V>(o: Options<V>) {
  const machine = useMemo(
    () =>
      sensorSaveMachine.provide({
        actors: {
          save: fromPromise(async ({ input }) => (await api.put(`/organisations/${o.orgId}/sensors/${o.sensor.id}`, input, { schema: sensorUpdateResponseSchema })).sensor),
        },
      }),
    [o.orgId, o.sensor.id],
  );
  const actor = useActorRef(machine, {
    input: { values: o.initial, check: o.check as never, valuesOf: o.valuesOf as never, successMessage: o.successMessage, failureMessage: o.failureMessage, liveErrors: o.liveErrors },
  });
  const values = useSelector(actor, (s) => s.context.values) as V;
  const errors = useSelector(actor, (s) => s.context.errors);
  const saving = useSelector(actor, (s) => s.matches('saving'));
  const notice = useSelector(actor, (s) => s.context.notice);
  const saved = useSelector(actor, (s) => s.context.saved) as Sensor | null;
  const onSaved = o.onSaved;
  useEffect(() => {
    if (!notice) return;
    notifications.show({ color: notice.kind === 'success' ? 'teal' : 'red', message: notice.message, autoClose: NOTICE_MS, withBorder: true });
  }, [notice]);
  useEffect(() => {
    if (saved) onSaved(saved);
  }, [saved, onSaved]);
  // a save elsewhere (another browser, the live feed) refreshes a form the user has not touched
  const loaded = useRef(JSON.stringify(o.initial));
  const fresh = o.valuesOf(o.sensor);
  const freshJson = JSON.stringify(fresh);
  useEffect(() => {
    if (freshJson === loaded.current) return;
    if (JSON.stringify(actor.getSnapshot().context.values) === loaded.current) actor.send({ type: 'LOAD', values: fresh as never });
    loaded.current = freshJson;
  }, [fresh, freshJson, actor]);
  return {
    values,
    errors,
    saving,
    edit: (update: (v: V) => V) => actor.send({ type: 'EDIT', update: update as never }),
    submit: () => actor.send({ type: 'SUBMIT' }),
  };
}
