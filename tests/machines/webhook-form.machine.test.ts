import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { webhookFormMachine, webhookView, type WebhookFormSnapshot } from '../../machines/webhook-form.machine';
import type { Integration } from '../../src/contract/live.schema';
import type { WebhookSave } from '../../src/domain/webhook-form';
import { controlledActors, coveringPaths, essentialPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';

/**
 * The webhook form, modelled by hand from organisation-and-routes:
 * - 2.1: a URL field, header rows with an add-header control disabled until a URL exists, Update
 *   disabled while the form is invalid; at most 5 rows (9).
 * - 5: the URL must be an http or https url ('Please enter a valid http or https url'); a row with
 *   a key or a value needs both ('Key required', 'Value required'); fully empty rows are ignored;
 *   keys and values are trimmed.
 * - 4: a non-empty URL with an existing webhook updates it; an empty URL with one removes it; a URL
 *   with none creates one. (An empty URL with none has nothing to do: Update stays disabled.)
 * - 8: 'Webhook updated successfully.' on any success, the failure notice on any failure; what was
 *   typed stays after a failure.
 * - Issue 13: a saved webhook can be sent a test event (to what is saved, so only while the form
 *   shows exactly that).
 *
 * Rows are modelled by kind: E empty, F full (key and value), H half (a key only); at most one E
 * and one H at a time keeps the model small while still reaching the 5-row limit.
 */
type Url = '' | 'A' | 'bad';
interface M {
  /** null: no webhook saved; n: saved with n header rows (its URL is always A here). */
  saved: number | null;
  url: Url;
  E: number;
  F: number;
  H: number;
  /** Of the F full rows, how many were filled here (the others are the saved rows, each with its own key). */
  added: number;
}
const URLS: Record<Url, string> = { '': '', A: 'https://hooks.example.com/tidewatch', bad: 'ftp://hooks.example.com' };

const rows = (c: M) => c.E + c.F + c.H;
const modelValid = (c: M) => (c.url === 'A' ? c.H === 0 : c.url === '' ? c.saved !== null : false);
const modelCanAdd = (c: M) => c.url !== '' && rows(c) < 5;
// empty rows are ignored, so they do not make the form differ from the saved webhook
const modelCanTest = (c: M) => c.saved !== null && c.url === 'A' && c.H === 0 && c.added === 0 && c.F === c.saved;
// typed loosely: a helper outside setup() cannot name the model's own action types
const edit = (change: (c: M) => Partial<M>) => assign(({ context }: { context: M }) => change(context)) as never;
/**
 * Spec 8's notices follow from the last step alone (so they are not model state, which keeps the
 * model small): the result of a save or a test shows until the next action clears it.
 */
const NOTICE_AFTER: Record<string, string> = {
  SAVE_OK: 'Webhook updated successfully.',
  SAVE_FAIL: 'Webhook updated failed due to error. Please check your internet connection and try again.',
  TEST_OK: `Test event sent to https://hooks.example.com/tidewatch. It arrives within a few seconds, signed with the secret shown here.`,
  TEST_FAIL: 'Sending the test event failed. Please check your internet connection and try again.',
};

const webhookModel = setup({
  types: { context: {} as M },
  guards: {
    valid: ({ context }) => modelValid(context),
    canTest: ({ context }) => modelCanTest(context),
    hasE: ({ context }) => context.E > 0,
    hasH: ({ context }) => context.H > 0,
    hasF: ({ context }) => context.F > 0,
    addable: ({ context }) => modelCanAdd(context) && context.E === 0,
    halfable: ({ context }) => context.E > 0 && context.H === 0,
  },
}).createMachine({
  id: 'webhook',
  context: { saved: null, url: '', E: 0, F: 0, H: 0, added: 0 },
  initial: 'loading',
  states: {
    loading: {
      on: {
        LOAD_NONE: 'editing',
        LOAD_ONE: { target: 'editing', actions: assign({ saved: 1, url: 'A', F: 1 }) },
        LOAD_FAIL: 'loadFailed',
      },
    },
    loadFailed: { on: { RETRY: 'loading' } },
    editing: {
      on: {
        URL_VALID: { actions: edit(() => ({ url: 'A' })) },
        URL_BAD: { actions: edit(() => ({ url: 'bad' })) },
        URL_EMPTY: { actions: edit(() => ({ url: '' })) },
        // the add-header control: a new empty row (only one empty row at a time in this model)
        ADD_HEADER: { guard: 'addable', actions: edit(() => ({ E: 1 })) },
        FILL_EMPTY: { guard: 'hasE', actions: edit((c) => ({ E: c.E - 1, F: c.F + 1, added: c.added + 1 })) },
        HALF_EMPTY: { guard: 'halfable', actions: edit((c) => ({ E: c.E - 1, H: 1 })) },
        COMPLETE_HALF: { guard: 'hasH', actions: edit((c) => ({ H: 0, F: c.F + 1, added: c.added + 1 })) },
        REMOVE_EMPTY: { guard: 'hasE', actions: edit((c) => ({ E: c.E - 1 })) },
        REMOVE_HALF: { guard: 'hasH', actions: edit(() => ({ H: 0 })) },
        // the first full row goes: a saved one while any is left
        REMOVE_FULL: { guard: 'hasF', actions: edit((c) => ({ F: c.F - 1, added: c.F - c.added > 0 ? c.added : c.added - 1 })) },
        SUBMIT: { guard: 'valid', target: 'saving' },
        SEND_TEST: { guard: 'canTest', target: 'testing' },
      },
    },
    saving: {
      on: {
        // the form then shows what was saved: empty rows dropped; a removal leaves an empty form
        SAVE_OK: {
          target: 'editing',
          actions: assign(({ context }) => (context.url === '' ? { saved: null, url: '' as Url, E: 0, F: 0, H: 0, added: 0 } : { saved: context.F, E: 0, H: 0, added: 0 })),
        },
        SAVE_FAIL: 'editing',
      },
    },
    testing: {
      on: {
        TEST_OK: 'editing',
        TEST_FAIL: 'editing',
      },
    },
  },
});
type ModelSnap = SnapshotFrom<typeof webhookModel>;

const hook = (headers: { key: string; value: string }[], url = URLS.A): Integration => ({ id: 'b6a1f1c4-0000-4000-8000-000000000001', type: 'webhook', url, headers, secret: 'whsec_x', createdAt: 0 });
type Harness = ReturnType<typeof start>;
function start(inspect?: ReturnType<typeof machineCoverage>['inspect']) {
  const kit = controlledActors(['load', 'save', 'sendTest']);
  const actor = createActor(webhookFormMachine.provide({ actors: kit.actors as never }), { inspect }).start();
  return { actor, ...kit, last: '' };
}

const kindsOf = (s: WebhookFormSnapshot) => {
  const hs = s.context.values.headers;
  const full = (h: { key: string; value: string }) => h.key.trim() !== '' && h.value.trim() !== '';
  const empty = (h: { key: string; value: string }) => !h.key.trim() && !h.value.trim();
  return { E: hs.filter(empty).length, F: hs.filter(full).length, H: hs.filter((h) => !full(h) && !empty(h)).length };
};
const firstIndex = (h: Harness, kind: 'E' | 'F' | 'H') =>
  h.actor.getSnapshot().context.values.headers.findIndex((r) => {
    const k = !r.key.trim() && !r.value.trim() ? 'E' : r.key.trim() && r.value.trim() ? 'F' : 'H';
    return k === kind;
  });

let counter = 0;
async function drive(h: Harness, type: string) {
  // an event the form ignores (a disabled control) leaves the last notice in place
  const before = h.actor.getSnapshot();
  const send = (e: unknown) => h.actor.send(e as never);
  switch (type) {
    case 'LOAD_NONE':
      h.take('load').resolve(null);
      break;
    case 'LOAD_ONE':
      h.take('load').resolve(hook([{ key: 'X-Team', value: 'ops' }]));
      break;
    case 'LOAD_FAIL':
      h.take('load').reject({ status: 500, code: 'INTERNAL_ERROR', message: 'boom' });
      break;
    case 'URL_VALID':
      // surrounding spaces: trimmed on save (spec 5)
      send({ type: 'SET_URL', url: `  ${URLS.A} ` });
      break;
    case 'URL_BAD':
      send({ type: 'SET_URL', url: URLS.bad });
      break;
    case 'URL_EMPTY':
      send({ type: 'SET_URL', url: '   ' });
      break;
    case 'ADD_HEADER':
      // the model keeps one empty row at most: with one there, the model has no such step
      if (firstIndex(h, 'E') === -1) send({ type: 'ADD_HEADER' });
      break;
    case 'FILL_EMPTY': {
      const i = firstIndex(h, 'E');
      if (i === -1) break; // no such row on screen
      counter++;
      send({ type: 'SET_HEADER', index: i, field: 'key', value: ` X-Key-${counter} ` });
      send({ type: 'SET_HEADER', index: i, field: 'value', value: ` v${counter} ` });
      break;
    }
    case 'HALF_EMPTY':
      if (firstIndex(h, 'H') === -1 && firstIndex(h, 'E') !== -1) send({ type: 'SET_HEADER', index: firstIndex(h, 'E'), field: 'key', value: 'X-Half' });
      break;
    case 'COMPLETE_HALF':
      if (firstIndex(h, 'H') !== -1) send({ type: 'SET_HEADER', index: firstIndex(h, 'H'), field: 'value', value: 'now-full' });
      break;
    case 'REMOVE_EMPTY':
      if (firstIndex(h, 'E') !== -1) send({ type: 'REMOVE_HEADER', index: firstIndex(h, 'E') });
      break;
    case 'REMOVE_HALF':
      if (firstIndex(h, 'H') !== -1) send({ type: 'REMOVE_HEADER', index: firstIndex(h, 'H') });
      break;
    case 'REMOVE_FULL':
      if (firstIndex(h, 'F') !== -1) send({ type: 'REMOVE_HEADER', index: firstIndex(h, 'F') });
      break;
    case 'SUBMIT':
    case 'SEND_TEST':
    case 'RETRY':
      send({ type });
      break;
    case 'SAVE_OK': {
      const call = h.take('save');
      const input = call.input as WebhookSave;
      call.resolve(input.kind === 'delete' ? null : hook(input.input.headers!.map((x) => ({ ...x })), input.input.url));
      break;
    }
    case 'SAVE_FAIL':
      h.take('save').reject({ status: 0, code: 'NETWORK_ERROR', message: 'Failed to fetch' });
      break;
    case 'TEST_OK':
      h.take('sendTest').resolve({ webhookId: 'msg_1', url: URLS.A });
      break;
    case 'TEST_FAIL':
      h.take('sendTest').reject({ status: 500, code: 'INTERNAL_ERROR', message: 'x' });
      break;
    default:
      throw new Error(`no driver for ${type}`);
  }
  await flush();
  if (h.actor.getSnapshot() !== before) h.last = type;
}

function check(h: Harness, expected: ModelSnap) {
  const s = h.actor.getSnapshot();
  const c = expected.context;
  const where = `${String(expected.value)} ${JSON.stringify(c)}`;
  expect(String(s.value), where).toBe(String(expected.value));
  if (expected.value === 'loading' || expected.value === 'loadFailed') {
    expect(s.context.loadError !== null, `${where}: load error`).toBe(expected.value === 'loadFailed');
    return;
  }
  const url = s.context.values.url.trim();
  expect(url === '' ? '' : url === URLS.A ? 'A' : 'bad', `${where}: url`).toBe(c.url);
  expect(kindsOf(s), `${where}: rows`).toEqual({ E: c.E, F: c.F, H: c.H });
  expect(s.context.integration === null ? null : s.context.integration.headers.length, `${where}: saved webhook`).toEqual(c.saved);
  const view = webhookView(s);
  const editing = expected.value === 'editing';
  expect(view.canUpdate, `${where}: Update enabled`).toBe(editing && modelValid(c));
  expect(view.canAdd, `${where}: add-header enabled`).toBe(editing && modelCanAdd(c));
  expect(view.canTest, `${where}: send test enabled`).toBe(editing && modelCanTest(c));
  expect(s.context.notice?.text ?? null, `${where}: notice`).toBe(NOTICE_AFTER[h.last] ?? null);
  // field messages (spec 5)
  expect(view.errors.url ?? null).toBe(c.url === 'bad' ? 'Please enter a valid http or https url' : null);
  const halfErrors = view.errors.headers.filter((e) => e.value === 'Value required' && !e.key);
  expect(halfErrors.length, `${where}: 'Value required' on the half row`).toBe(c.H);
  expect(h.calls.map((x) => x.src)).toEqual(expected.value === 'saving' ? ['save'] : expected.value === 'testing' ? ['sendTest'] : []);
  if (expected.value === 'saving') {
    const input = h.calls[0].input as WebhookSave;
    // spec 4: which call
    expect(input.kind, `${where}: save kind`).toBe(c.saved === null ? 'create' : c.url === '' ? 'delete' : 'update');
    if (input.kind !== 'delete') {
      expect(input.input.url).toBe(URLS.A);
      expect(input.input.headers!.length, 'empty rows are not sent').toBe(c.F);
      for (const x of input.input.headers!) expect(x.key === x.key.trim() && x.value === x.value.trim(), 'trimmed').toBe(true);
    }
  }
  if (expected.value === 'testing') expect(h.calls[0].input).toEqual({ id: hook([]).id });
}

describe('webhook form machine against its model (organisation-and-routes 2.1, 4, 5, 8, 9)', () => {
  const model = createTestModel(webhookModel);
  const paths = documentedPaths('webhook-form', essentialPaths(webhookModel, coveringPaths(model)));
  const events = [
    'LOAD_NONE', 'LOAD_ONE', 'LOAD_FAIL', 'RETRY', 'URL_VALID', 'URL_BAD', 'URL_EMPTY', 'ADD_HEADER', 'FILL_EMPTY', 'HALF_EMPTY',
    'COMPLETE_HALF', 'REMOVE_EMPTY', 'REMOVE_HALF', 'REMOVE_FULL', 'SUBMIT', 'SEND_TEST', 'SAVE_OK', 'SAVE_FAIL', 'TEST_OK', 'TEST_FAIL',
  ];
  const coverage = machineCoverage(webhookFormMachine);

  it('the paths take every state and transition of the model, and reach the 5-row limit', () => {
    expect(modelUncovered(webhookModel, paths)).toEqual({ states: [], transitions: [] });
    expect(paths.some((p) => p.steps.some((st) => rows((st.state as ModelSnap).context) === 5))).toBe(true);
  });

  it(`every path (${paths.length}) agrees with the machine`, async () => {
    const failures: string[] = [];
    for (const path of paths) {
      const h = start(coverage.inspect);
      try {
        await path.test({
          events: Object.fromEntries(events.map((t) => [t, () => drive(h, t)])) as never,
          states: { '*': (state) => check(h, state as ModelSnap) },
        });
      } catch (err) {
        failures.push(`${path.description}: ${(err as Error).message.split('\n')[0]}`);
      }
      h.actor.stop();
    }
    expect(failures.slice(0, 5), `${failures.length} of ${paths.length} paths failed`).toEqual([]);
  }, 300_000);

  it('the paths exercised every state and transition of the real machine', () => {
    // DISMISS is a view convenience the spec does not name
    expect(coverage.uncovered()).toEqual({ states: [], transitions: ['webhookForm.editing on DISMISS #0'] });
  });
});
