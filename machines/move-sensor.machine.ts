import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { isLegalPosition, parseLatLng, type LatLng } from '../src/domain/location';
import { SETUP_NOTICES, SETUP_RULES } from '../src/domain/setup-messages';

/**
 * The move-sensor screen (sensor-setup 2, 4, 5, 8). A map click, an address picked from the
 * search or typed 'lat, lng' place the sensor (unsaved); typed coordinates outside the ranges
 * give the illegal-coordinates error and move nothing. Save stores the position ('Failed to
 * update location' on failure, keeping the placed position); Cancel puts the marker back.
 */
export interface MoveNotice {
  kind: 'success' | 'error';
  message: string;
  seq: number;
}
interface MoveContext {
  saved: LatLng | null;
  position: LatLng | null;
  notice: MoveNotice | null;
}
export type MoveEvent = { type: 'PLACE'; position: LatLng } | { type: 'TYPE'; text: string } | { type: 'SAVE' } | { type: 'CANCEL' };

const note = (c: MoveContext, kind: MoveNotice['kind'], message: string): MoveNotice => ({ kind, message, seq: (c.notice?.seq ?? 0) + 1 });

export const moveSensorMachine = setup({
  types: { context: {} as MoveContext, events: {} as MoveEvent, input: {} as { saved: LatLng | null } },
  actors: {
    /** PUT /organisations/{orgId}/sensors/{sensorId} with latitude and longitude. */
    save: fromPromise<unknown, LatLng>(async () => {
      throw new Error('save not provided');
    }),
  },
  guards: {
    legalPlace: ({ event }) => event.type === 'PLACE' && isLegalPosition(event.position),
    legalTyped: ({ event }) => event.type === 'TYPE' && parseLatLng(event.text) !== undefined,
  },
  actions: {
    place: assign({ position: ({ event }) => (event.type === 'PLACE' ? event.position : event.type === 'TYPE' ? parseLatLng(event.text)! : null) }),
    illegal: assign({ notice: ({ context }) => note(context, 'error', SETUP_RULES.ILLEGAL_COORDINATES) }),
  },
}).createMachine({
  id: 'moveSensor',
  context: ({ input }) => ({ saved: input.saved, position: input.saved, notice: null }),
  initial: 'placed',
  states: {
    /** The marker is where the sensor is saved. */
    placed: {
      on: {
        PLACE: [{ guard: 'legalPlace', target: 'moved', actions: 'place' }, { actions: 'illegal' }],
        TYPE: [{ guard: 'legalTyped', target: 'moved', actions: 'place' }, { actions: 'illegal' }],
      },
    },
    /** A new position waits to be saved. */
    moved: {
      on: {
        PLACE: [{ guard: 'legalPlace', actions: 'place' }, { actions: 'illegal' }],
        TYPE: [{ guard: 'legalTyped', actions: 'place' }, { actions: 'illegal' }],
        SAVE: 'saving',
        CANCEL: { target: 'placed', actions: assign({ position: ({ context }) => context.saved }) },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => context.position!,
        onDone: { target: 'placed', actions: assign(({ context }) => ({ saved: context.position, notice: note(context, 'success', SETUP_NOTICES.locationUpdated) })) },
        onError: { target: 'moved', actions: assign(({ context }) => ({ notice: note(context, 'error', SETUP_NOTICES.locationFailed) })) },
      },
    },
  },
});

export type MoveSensorSnapshot = SnapshotFrom<typeof moveSensorMachine>;
