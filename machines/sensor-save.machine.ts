import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

/**
 * The save flow of a setup section (sensor-setup 2, 4, 8): the form's values live here, so a
 * failed save keeps what the user typed. Update checks the values with the section's rules
 * (the shared ones in src/domain): with errors they show and nothing is sent; without, the
 * section's one PUT is made ('Updating' meanwhile, the form locked). Success shows the
 * section's notice and takes the saved sensor's values; failure shows its notice and keeps the
 * typed values. Once errors have shown they follow each edit, so Update enables as they clear.
 */

export type FieldErrors = Record<string, string>;
export interface Checked<B> {
  body: B;
  errors: FieldErrors;
}
export interface Notice {
  kind: 'success' | 'error';
  message: string;
  /** Counts notices, so the view shows each one once. */
  seq: number;
}

export interface SaveInput<V, B, R> {
  values: V;
  check(values: V): Checked<B>;
  /** Values of the form from what the server saved. */
  valuesOf(saved: R): V;
  successMessage: string;
  failureMessage(error: unknown): string;
  /** Errors follow every edit from the start, not only after the first Update (the satellite alarms form, sensor-setup 4). */
  liveErrors?: boolean;
}

interface SaveContext<V, B, R> extends SaveInput<V, B, R> {
  errors: FieldErrors;
  showErrors: boolean;
  notice: Notice | null;
  saved: R | null;
}

export type SaveEvent<V> = { type: 'EDIT'; update: (v: V) => V } | { type: 'SUBMIT' } | { type: 'LOAD'; values: V };

const hasErrors = (e: FieldErrors) => Object.keys(e).length > 0;

// Typed loosely at the machine; useSectionSave gives each section its own types.
type V = unknown;
type B = unknown;
type R = unknown;

export const sensorSaveMachine = setup({
  types: { context: {} as SaveContext<V, B, R>, events: {} as SaveEvent<V>, input: {} as SaveInput<V, B, R> },
  actors: {
    /** PUT /organisations/{orgId}/sensors/{sensorId} with the body; answers the updated sensor. */
    save: fromPromise<R, B>(async () => {
      throw new Error('save not provided');
    }),
  },
  guards: {
    invalid: ({ context }) => hasErrors(context.check(context.values).errors),
  },
  actions: {
    edit: assign(({ context, event }) => {
      if (event.type !== 'EDIT') return {};
      const values = event.update(context.values);
      return { values, errors: context.showErrors ? context.check(values).errors : context.errors };
    }),
    showErrors: assign(({ context }) => ({ errors: context.check(context.values).errors, showErrors: true })),
    load: assign(({ context, event }) =>
      event.type === 'LOAD' ? { values: event.values, errors: context.liveErrors ? context.check(event.values).errors : {}, showErrors: !!context.liveErrors } : {},
    ),
  },
}).createMachine({
  id: 'sensorSave',
  context: ({ input }) => ({ ...input, errors: input.liveErrors ? input.check(input.values).errors : {}, showErrors: !!input.liveErrors, notice: null, saved: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        EDIT: { actions: 'edit' },
        LOAD: { actions: 'load' },
        SUBMIT: [{ guard: 'invalid', actions: 'showErrors' }, { target: 'saving' }],
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }: { context: SaveContext<V, B, R> }): B => context.check(context.values).body,
        onDone: {
          target: 'editing',
          actions: assign(({ context, event }) => ({
            saved: event.output,
            values: context.valuesOf(event.output),
            errors: {},
            showErrors: !!context.liveErrors,
            notice: { kind: 'success' as const, message: context.successMessage, seq: (context.notice?.seq ?? 0) + 1 },
          })),
        },
        onError: {
          target: 'editing',
          actions: assign(({ context, event }) => ({
            notice: { kind: 'error' as const, message: context.failureMessage(event.error), seq: (context.notice?.seq ?? 0) + 1 },
          })),
        },
      },
    },
  },
});

export type SensorSaveSnapshot = SnapshotFrom<typeof sensorSaveMachine>;
/** The Update button's text (sensor-setup 2): 'Updating' while saving. */
export const updateLabel = (saving: boolean) => (saving ? 'Updating' : 'Update');
