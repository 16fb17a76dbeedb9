import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { Integration } from '../src/contract/live.schema';
import type { WebhookTestResult } from '../src/contract/webhook-test.schema';
import { messageForError } from '../src/domain/messages';
import { canAddHeader, chooseSave, validateWebhook, valuesOf, WEBHOOK_MESSAGES, type WebhookSave, type WebhookValues } from '../src/domain/webhook-form';

/**
 * The organisation's webhook (organisation-and-routes 2.1, 4, 5, 8, 9; issue 13): loads the
 * webhook integration, edits its URL and up to 5 header rows, and Update creates, updates or
 * removes it as spec 4 says, with its two notices. What was typed stays after a failure. A saved
 * webhook can be sent a test event (through the server's outbox and signed delivery).
 */

export interface WebhookFormContext {
  integration: Integration | null;
  values: WebhookValues;
  /** Message of a failed load. */
  loadError: string | null;
  notice: { kind: 'success' | 'error'; text: string } | null;
}

export type WebhookFormEvent =
  | { type: 'SET_URL'; url: string }
  | { type: 'ADD_HEADER' }
  | { type: 'SET_HEADER'; index: number; field: 'key' | 'value'; value: string }
  | { type: 'REMOVE_HEADER'; index: number }
  | { type: 'SUBMIT' }
  | { type: 'SEND_TEST' }
  | { type: 'RETRY' }
  | { type: 'DISMISS' };

export const webhookFormMachine = setup({
  types: { context: {} as WebhookFormContext, events: {} as WebhookFormEvent },
  actors: {
    /** GET .../integrations?type=webhook: the organisation's webhook, or null. */
    load: fromPromise<Integration | null, void>(async () => {
      throw new Error('load not provided');
    }),
    /** POST, PATCH or DELETE .../integrations: the webhook after the save (null once removed). */
    save: fromPromise<Integration | null, WebhookSave>(async () => {
      throw new Error('save not provided');
    }),
    /** POST .../integrations/{id}/test */
    sendTest: fromPromise<WebhookTestResult, { id: string }>(async () => {
      throw new Error('sendTest not provided');
    }),
  },
  guards: {
    valid: ({ context }) => validateWebhook(context.values, !!context.integration).valid,
    canAdd: ({ context }) => canAddHeader(context.values),
    // the test goes to the saved webhook, so only when what is shown is what is saved
    canTest: ({ context }) => !!context.integration && sameAsSaved(context),
  },
  actions: {
    clearNotice: assign({ notice: null }),
  },
}).createMachine({
  id: 'webhookForm',
  context: { integration: null, values: valuesOf(null), loadError: null, notice: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'editing', actions: assign(({ event }) => ({ integration: event.output, values: valuesOf(event.output), loadError: null })) },
        onError: { target: 'loadFailed', actions: assign(({ event }) => ({ loadError: messageForError(event.error) })) },
      },
    },
    loadFailed: { on: { RETRY: { target: 'loading', actions: assign({ loadError: null }) } } },
    editing: {
      on: {
        SET_URL: { actions: assign(({ context, event }) => ({ values: { ...context.values, url: event.url }, notice: null })) },
        ADD_HEADER: { guard: 'canAdd', actions: assign(({ context }) => ({ values: { ...context.values, headers: [...context.values.headers, { key: '', value: '' }] }, notice: null })) },
        SET_HEADER: {
          actions: assign(({ context, event }) => ({
            values: { ...context.values, headers: context.values.headers.map((h, i) => (i === event.index ? { ...h, [event.field]: event.value } : h)) },
            notice: null,
          })),
        },
        REMOVE_HEADER: { actions: assign(({ context, event }) => ({ values: { ...context.values, headers: context.values.headers.filter((_, i) => i !== event.index) }, notice: null })) },
        SUBMIT: { guard: 'valid', target: 'saving', actions: 'clearNotice' },
        SEND_TEST: { guard: 'canTest', target: 'testing', actions: 'clearNotice' },
        DISMISS: { actions: 'clearNotice' },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => chooseSave(context.values, context.integration)!,
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({ integration: event.output, values: valuesOf(event.output), notice: { kind: 'success' as const, text: WEBHOOK_MESSAGES.saved } })),
        },
        onError: { target: 'editing', actions: assign({ notice: { kind: 'error' as const, text: WEBHOOK_MESSAGES.failed } }) },
      },
    },
    testing: {
      invoke: {
        id: 'sendTest',
        src: 'sendTest',
        input: ({ context }) => ({ id: context.integration!.id }),
        onDone: { target: 'editing', actions: assign(({ event }) => ({ notice: { kind: 'success' as const, text: WEBHOOK_MESSAGES.testSent(event.output.url) } })) },
        onError: { target: 'editing', actions: assign({ notice: { kind: 'error' as const, text: WEBHOOK_MESSAGES.testFailed } }) },
      },
    },
  },
});

function sameAsSaved(context: WebhookFormContext) {
  const saved = valuesOf(context.integration);
  const a = chooseSave(context.values, context.integration);
  return a?.kind === 'update' && a.input.url === saved.url && JSON.stringify(a.input.headers) === JSON.stringify(saved.headers);
}

export type WebhookFormSnapshot = SnapshotFrom<typeof webhookFormMachine>;
export const isWebhookBusy = (s: WebhookFormSnapshot) => s.matches('saving') || s.matches('testing');
export const webhookView = (s: WebhookFormSnapshot) => {
  const { errors, valid } = validateWebhook(s.context.values, !!s.context.integration);
  return { errors, canUpdate: valid && s.matches('editing'), canAdd: canAddHeader(s.context.values) && s.matches('editing'), canTest: s.matches('editing') && !!s.context.integration && sameAsSaved(s.context) };
};
