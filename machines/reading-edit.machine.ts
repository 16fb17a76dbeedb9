import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import {
  READING_MAX,
  READING_MIN,
  ROUTE_ERROR_CODES,
  ROUTE_MESSAGES,
  UNREAD_VALUE,
  type CantReadCode,
  type CommentCode,
  type MeterReading,
  type MeterReadingPatch,
} from '../src/contract/route.schema';

/**
 * The 'Edit Property and Reading Details' flow (organisation-and-routes 2.4, 4 "Editing rules" and
 * "Reading form interplay", 5 "Meter reading form", 7.3, 8):
 * - only admins/owners edit, never on an exported task or a reading that is not completed;
 * - a can't-read code disables Reading and Comment Code, resets the comment code to N/A and
 *   clears the value; N/A for the can't-read code restores the original value and comment code;
 * - Reading is required unless a can't-read code is set, and is an integer from 0 to 9,999,999
 *   ("{label} is required", "{label} is not a valid integer", "{label} must be between {min} and {max}");
 * - submit sends only the changed fields (with the reading's id); NOTHING_UPDATED shows 'Nothing
 *   is edited...', any other failure the generic edit failure; success closes the modal.
 */

export const READING_LABEL = 'Reading';
export const readingMessages = {
  required: `${READING_LABEL} is required`,
  notInteger: `${READING_LABEL} is not a valid integer`,
  range: `${READING_LABEL} must be between ${READING_MIN} and ${READING_MAX}`,
} as const;

/** The editable fields of a reading, as the form holds them. */
export interface ReadingDraft {
  /** The Reading input's text ('' when empty). */
  value: string;
  cantReadCode: CantReadCode | null;
  commentCode: CommentCode | null;
  notes: string;
  serviceRequired: boolean;
  additionalLocationInfo: string;
}

export type EditableReading = Pick<MeterReading, 'id' | 'value' | 'cantReadCode' | 'commentCode' | 'notes' | 'serviceRequired' | 'completed'> & {
  meterInfo: Pick<MeterReading['meterInfo'], 'additionalLocationInfo'>;
};

/** -1 and null both mean "not read": the form shows an empty Reading. */
export const valueText = (v: number | null) => (v === null || v === UNREAD_VALUE ? '' : String(v));

export function draftOf(r: EditableReading): ReadingDraft {
  return {
    value: valueText(r.value),
    cantReadCode: r.cantReadCode,
    commentCode: r.commentCode,
    notes: r.notes ?? '',
    serviceRequired: r.serviceRequired,
    additionalLocationInfo: r.meterInfo.additionalLocationInfo ?? '',
  };
}

/** Section 5's reading rule: the Reading field's message, or null when the draft is valid. */
export function readingError(d: Pick<ReadingDraft, 'value' | 'cantReadCode'>): string | null {
  if (d.cantReadCode) return null;
  const t = d.value.trim();
  if (t === '') return readingMessages.required;
  if (!/^[+-]?\d+$/.test(t)) return readingMessages.notInteger;
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < READING_MIN || n > READING_MAX) return readingMessages.range;
  return null;
}

/** Only the changed fields (section 7.3), plus the reading's id. */
export function changedFields(original: EditableReading, d: ReadingDraft): MeterReadingPatch {
  const patch: MeterReadingPatch = { id: original.id };
  const before = draftOf(original);
  const newValue = d.cantReadCode || d.value.trim() === '' ? null : Number(d.value.trim());
  const oldValue = before.value === '' ? null : Number(before.value);
  if (newValue !== oldValue) patch.value = newValue;
  if (d.cantReadCode !== before.cantReadCode) patch.cantReadCode = d.cantReadCode;
  if (d.commentCode !== before.commentCode) patch.commentCode = d.commentCode;
  if (d.notes !== before.notes) patch.notes = d.notes === '' ? null : d.notes;
  if (d.serviceRequired !== before.serviceRequired) patch.serviceRequired = d.serviceRequired;
  if (d.additionalLocationInfo !== before.additionalLocationInfo) patch.meterInfo = { additionalLocationInfo: d.additionalLocationInfo };
  return patch;
}

export interface ReadingEditContext {
  original: EditableReading | null;
  draft: ReadingDraft | null;
  /** Field messages show after the first submit. */
  showErrors: boolean;
  /** The modal's red alert (section 8). */
  error: string | null;
  /** The reading the last successful edit answered. */
  saved: MeterReading | null;
}

export type ReadingEditEvent =
  | { type: 'OPEN'; reading: EditableReading; exported: boolean }
  | { type: 'CLOSE' }
  | { type: 'SET_VALUE'; value: string }
  | { type: 'SET_CANT_READ'; code: CantReadCode | null }
  | { type: 'SET_COMMENT'; code: CommentCode | null }
  | { type: 'SET_NOTES'; notes: string }
  | { type: 'SET_SERVICE_REQUIRED'; on: boolean }
  | { type: 'SET_LOCATION_INFO'; text: string }
  | { type: 'SUBMIT' };

export interface SaveInput {
  readingId: string;
  patch: MeterReadingPatch;
}

const errorCode = (e: unknown) => (e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : '');

export const readingEditMachine = setup({
  types: { context: {} as ReadingEditContext, events: {} as ReadingEditEvent },
  actors: {
    /** PATCH /organisations/{orgId}/routes/{taskId}/meter-readings/{readingId} */
    save: fromPromise<MeterReading, SaveInput>(async () => {
      throw new Error('save not provided');
    }),
  },
  guards: {
    /** Editing is blocked when the task is exported or the reading is not completed. */
    editable: ({ event }) => event.type === 'OPEN' && !event.exported && event.reading.completed,
    valid: ({ context }) => readingError(context.draft!) === null,
    readingEnabled: ({ context }) => context.draft!.cantReadCode === null,
    nothingUpdated: ({ event }) => errorCode((event as { error?: unknown }).error) === ROUTE_ERROR_CODES.NOTHING_UPDATED,
  },
}).createMachine({
  id: 'readingEdit',
  context: { original: null, draft: null, showErrors: false, error: null, saved: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN: {
          guard: 'editable',
          target: 'editing',
          actions: assign(({ event }) => ({ original: event.reading, draft: draftOf(event.reading), showErrors: false, error: null, saved: null })),
        },
      },
    },
    editing: {
      on: {
        CLOSE: { target: 'closed', actions: assign({ original: null, draft: null, showErrors: false, error: null }) },
        // Reading and Comment Code are disabled while a can't-read code is set
        SET_VALUE: { guard: 'readingEnabled', actions: assign(({ context, event }) => ({ error: null, draft: { ...context.draft!, value: event.value } })) },
        SET_CANT_READ: {
          actions: assign(({ context, event }) => ({
            error: null,
            draft: event.code
              ? { ...context.draft!, cantReadCode: event.code, commentCode: null, value: '' }
              : { ...context.draft!, cantReadCode: null, value: valueText(context.original!.value), commentCode: context.original!.commentCode },
          })),
        },
        SET_COMMENT: { guard: 'readingEnabled', actions: assign(({ context, event }) => ({ error: null, draft: { ...context.draft!, commentCode: event.code } })) },
        SET_NOTES: { actions: assign(({ context, event }) => ({ error: null, draft: { ...context.draft!, notes: event.notes } })) },
        SET_SERVICE_REQUIRED: { actions: assign(({ context, event }) => ({ error: null, draft: { ...context.draft!, serviceRequired: event.on } })) },
        SET_LOCATION_INFO: { actions: assign(({ context, event }) => ({ error: null, draft: { ...context.draft!, additionalLocationInfo: event.text } })) },
        SUBMIT: [
          { guard: 'valid', target: 'saving', actions: assign({ showErrors: true, error: null }) },
          { actions: assign({ showErrors: true }) },
        ],
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({ readingId: context.original!.id, patch: changedFields(context.original!, context.draft!) }),
        onDone: { target: 'closed', actions: assign(({ event }) => ({ saved: event.output, original: null, draft: null, showErrors: false, error: null })) },
        onError: [
          { guard: 'nothingUpdated', target: 'editing', actions: assign({ error: ROUTE_MESSAGES.NOTHING_UPDATED }) },
          { target: 'editing', actions: assign({ error: ROUTE_MESSAGES.EDIT_FAILED }) },
        ],
      },
    },
  },
});

export type ReadingEditSnapshot = SnapshotFrom<typeof readingEditMachine>;

/** What the modal draws from a snapshot: which inputs are disabled and the field message. */
export function formView(s: ReadingEditSnapshot) {
  const d = s.context.draft;
  const busy = s.matches('saving');
  const cantRead = !!d?.cantReadCode;
  return {
    open: !s.matches('closed'),
    busy,
    readingDisabled: busy || cantRead,
    commentDisabled: busy || cantRead,
    readingError: d && s.context.showErrors ? readingError(d) : null,
    error: s.context.error,
  };
}
