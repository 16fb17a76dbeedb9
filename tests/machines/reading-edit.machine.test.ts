import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { formView, readingEditMachine, type EditableReading, type ReadingEditSnapshot } from '../../machines/reading-edit.machine';
import { ROUTE_MESSAGES } from '../../src/contract/route.schema';
import { controlledActors, coveringPaths, essentialPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';

/**
 * The 'Edit Property and Reading Details' flow, modelled from organisation-and-routes (not from
 * the machine):
 * - 2.4/4: the edit is refused when the task is exported or the reading is not completed;
 * - 4 "Reading form interplay": a can't-read code disables Reading and Comment Code, resets the
 *   comment code to N/A and clears the value; N/A for the can't-read code restores the original value
 *   and comment code (issue 36 item 18);
 * - 5 "Meter reading form": Reading is required unless a can't-read code is set, and is an integer
 *   from 0 to 9999999, with the messages "{label} is required", "{label} is not a valid integer",
 *   "{label} must be between {min} and {max}";
 * - 4 "Editing rules" and 7.3: submit sends only the changed fields; NOTHING_UPDATED gives
 *   "Nothing is edited. Please edit something and submit again." (8), other failures the
 *   generic edit failure (8); success closes the modal.
 */

type Value = 'orig' | 'empty' | 'new' | 'text' | 'huge';
type Comment = 'orig' | 'na' | 'new';
interface M {
  value: Value;
  cant: boolean;
  comment: Comment;
  showErrors: boolean;
  /** Notes, Service Required and the additional location info all changed. */
  others: boolean;
  error: 'nothing' | 'failed' | null;
  /** Whether the modal was opened before (only so that paths refuse an edit after a session too). */
  used: boolean;
}
const fresh = { value: 'orig', cant: false, comment: 'orig', showErrors: false, others: false, error: null } as const;
const initial: M = { ...fresh, used: false };
const valid = (m: M) => m.cant || m.value === 'orig' || m.value === 'new';
// while a can't-read code is set the input is disabled: the event changes nothing (a no-op action,
// so that the model's graph keeps the self-loop and the paths check that the machine ignores it)
const whenReadable = (change: Partial<M>) => [
  { guard: ({ context }: { context: M }) => !context.cant, actions: assign({ ...change, error: null }) },
  { actions: assign(({ context }: { context: M }) => ({ value: context.value })) },
] as never;

const model = setup({ types: { context: {} as M } }).createMachine({
  id: 'readingEditModel',
  context: initial,
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN_EDITABLE: { target: 'editing', actions: assign({ ...fresh, used: true }) },
        // refused: the modal stays closed (an action, so that the model's graph keeps these self-loops)
        OPEN_EXPORTED: { actions: assign({ error: null }) },
        OPEN_NOT_COMPLETED: { actions: assign({ error: null }) },
      },
    },
    editing: {
      on: {
        TYPE_NEW: whenReadable({ value: 'new' }),
        TYPE_TEXT: whenReadable({ value: 'text' }),
        TYPE_HUGE: whenReadable({ value: 'huge' }),
        CLEAR_READING: whenReadable({ value: 'empty' }),
        PICK_COMMENT: whenReadable({ comment: 'new' }),
        PICK_COMMENT_NA: whenReadable({ comment: 'na' }),
        EDIT_OTHERS: { actions: assign({ others: true, error: null }) },
        PICK_CANT_READ: { actions: assign({ cant: true, value: 'empty', comment: 'na', error: null }) },
        // issue 36 item 18: N/A restores both the value and the comment code ("Broken Lid" was lost)
        PICK_CANT_READ_NA: { actions: assign({ cant: false, value: 'orig', comment: 'orig', error: null }) },
        SUBMIT: [{ guard: ({ context }) => valid(context), target: 'saving', actions: assign({ showErrors: true, error: null }) }, { actions: assign({ showErrors: true }) }],
        CLOSE: { target: 'closed', actions: assign(fresh) },
      },
    },
    saving: {
      on: {
        SAVE_OK: { target: 'closed', actions: assign(fresh) },
        SAVE_NOTHING_UPDATED: { target: 'editing', actions: assign({ error: 'nothing' }) },
        SAVE_FAILS: { target: 'editing', actions: assign({ error: 'failed' }) },
      },
    },
  },
});
type ModelSnap = SnapshotFrom<typeof model>;

const ORIGINAL: EditableReading = {
  id: '5b0c4c52-5d7e-4c43-9a4b-6f0f3f1d2a10',
  value: 1234,
  cantReadCode: null,
  commentCode: 'Broken Lid',
  notes: 'Gate on the left',
  serviceRequired: false,
  completed: true,
  meterInfo: { additionalLocationInfo: 'Behind the hedge' },
};
const TYPED: Record<Value, string> = { orig: '1234', empty: '', new: '5678', text: '12a', huge: '10000000' };
const MESSAGE: Record<Value, string | null> = {
  orig: null,
  new: null,
  empty: 'Reading is required',
  text: 'Reading is not a valid integer',
  huge: 'Reading must be between 0 and 9999999',
};
const COMMENT = { orig: 'Broken Lid', na: null, new: 'Dog' } as const;

/** The patch the spec asks for: the reading's id and only what differs from the original. */
function expectedPatch(m: M) {
  const patch: Record<string, unknown> = { id: ORIGINAL.id };
  if (m.cant) patch.value = null;
  else if (m.value === 'new') patch.value = 5678;
  if (m.cant) patch.cantReadCode = 'Dog';
  if (m.comment !== 'orig') patch.commentCode = COMMENT[m.comment];
  if (m.others) Object.assign(patch, { notes: 'Dog at the gate', serviceRequired: true, meterInfo: { additionalLocationInfo: '' } });
  return patch;
}

const coverage = machineCoverage(readingEditMachine);

function start() {
  const { actors, take, calls } = controlledActors(['save']);
  const actor = createActor(readingEditMachine.provide({ actors }), { inspect: coverage.inspect }).start();
  return { actor, take, calls };
}

async function drive(h: ReturnType<typeof start>, type: string) {
  const send = h.actor.send.bind(h.actor);
  switch (type) {
    case 'OPEN_EDITABLE':
      return send({ type: 'OPEN', reading: ORIGINAL, exported: false });
    case 'OPEN_EXPORTED':
      return send({ type: 'OPEN', reading: ORIGINAL, exported: true });
    case 'OPEN_NOT_COMPLETED':
      return send({ type: 'OPEN', reading: { ...ORIGINAL, completed: false, value: null }, exported: false });
    case 'TYPE_NEW':
      return send({ type: 'SET_VALUE', value: TYPED.new });
    case 'TYPE_TEXT':
      return send({ type: 'SET_VALUE', value: TYPED.text });
    case 'TYPE_HUGE':
      return send({ type: 'SET_VALUE', value: TYPED.huge });
    case 'CLEAR_READING':
      return send({ type: 'SET_VALUE', value: '' });
    case 'PICK_COMMENT':
      return send({ type: 'SET_COMMENT', code: 'Dog' });
    case 'PICK_COMMENT_NA':
      return send({ type: 'SET_COMMENT', code: null });
    case 'PICK_CANT_READ':
      return send({ type: 'SET_CANT_READ', code: 'Dog' });
    case 'PICK_CANT_READ_NA':
      return send({ type: 'SET_CANT_READ', code: null });
    case 'EDIT_OTHERS':
      send({ type: 'SET_NOTES', notes: 'Dog at the gate' });
      send({ type: 'SET_SERVICE_REQUIRED', on: true });
      return send({ type: 'SET_LOCATION_INFO', text: '' });
    case 'SUBMIT':
      return send({ type: 'SUBMIT' });
    case 'CLOSE':
      return send({ type: 'CLOSE' });
    case 'SAVE_OK':
      h.take('save').resolve({ id: ORIGINAL.id });
      return flush();
    case 'SAVE_NOTHING_UPDATED':
      h.take('save').reject({ status: 400, code: 'NOTHING_UPDATED', message: 'nothing' });
      return flush();
    case 'SAVE_FAILS':
      h.take('save').reject({ status: 0, code: 'NETWORK_ERROR', message: 'Failed to fetch' });
      return flush();
  }
  throw new Error(`unknown event ${type}`);
}

function check(h: ReturnType<typeof start>, expected: ModelSnap) {
  const s = h.actor.getSnapshot() as ReadingEditSnapshot;
  const where = String(expected.value);
  const m = expected.context;
  const view = formView(s);
  expect(String(s.value), 'state').toBe(where);
  expect(view.open, 'modal open').toBe(where !== 'closed');
  expect(h.calls.length, 'pending save calls').toBe(where === 'saving' ? 1 : 0);
  if (where === 'closed') return;
  const d = s.context.draft!;
  expect(d.value, 'Reading input').toBe(TYPED[m.value]);
  expect(d.cantReadCode, "Can't Read Code").toBe(m.cant ? 'Dog' : null);
  expect(d.commentCode, 'Comment Code').toBe(COMMENT[m.comment]);
  expect([d.notes, d.serviceRequired, d.additionalLocationInfo], 'other fields').toEqual(m.others ? ['Dog at the gate', true, ''] : ['Gate on the left', false, 'Behind the hedge']);
  expect(view.readingDisabled, 'Reading disabled').toBe(where === 'saving' || m.cant);
  expect(view.commentDisabled, 'Comment Code disabled').toBe(where === 'saving' || m.cant);
  expect(view.readingError, 'Reading message').toBe(m.showErrors && !m.cant ? MESSAGE[m.value] : null);
  expect(view.error, 'alert').toBe(m.error === 'nothing' ? ROUTE_MESSAGES.NOTHING_UPDATED : m.error === 'failed' ? ROUTE_MESSAGES.EDIT_FAILED : null);
  if (where === 'saving') expect(h.calls[0].input).toEqual({ readingId: ORIGINAL.id, patch: expectedPatch(m) });
}

const EVENTS = [
  'OPEN_EDITABLE',
  'OPEN_EXPORTED',
  'OPEN_NOT_COMPLETED',
  'TYPE_NEW',
  'TYPE_TEXT',
  'TYPE_HUGE',
  'CLEAR_READING',
  'PICK_COMMENT',
  'PICK_COMMENT_NA',
  'PICK_CANT_READ',
  'PICK_CANT_READ_NA',
  'EDIT_OTHERS',
  'SUBMIT',
  'CLOSE',
  'SAVE_OK',
  'SAVE_NOTHING_UPDATED',
  'SAVE_FAILS',
];

describe('reading-edit machine against its model (organisation-and-routes 2.4, 4, 5, 7.3, 8)', () => {
  const testModel = createTestModel(model);
  const paths = documentedPaths('reading-edit', essentialPaths(model, coveringPaths(testModel)));

  it('the paths take every state and transition of the model', () => {
    expect(modelUncovered(model, paths)).toEqual({ states: [], transitions: [] });
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const h = start();
    await path.test({
      events: Object.fromEntries(EVENTS.map((t) => [t, () => drive(h, t)])) as never,
      states: { '*': (state) => check(h, state as ModelSnap) },
    });
    h.actor.stop();
  });

  it('the paths went through every state and transition of the machine', () => {
    expect(coverage.uncovered()).toEqual({ states: [], transitions: [] });
  });
});
