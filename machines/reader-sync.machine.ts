import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { MeterReadingAnswer, MeterReadingRecord } from '../src/contract/route.schema';

/**
 * The meter reader's upload queue (issue 33 "Sync"): recorded readings queue on the device and
 * upload one at a time in the order they were captured. Each capture carries its idempotency key
 * (its id), so a retry after a lost answer never records twice. A capture is waiting, sending,
 * sent or refused:
 * - a network failure, a server error, an expired sign-in or too many requests: the capture
 *   stays first in the queue and is tried again after a backoff (doubling from 2 s, capped at
 *   30 s: a phone whose signal returns without an `online` event, the browser having thought it
 *   was online all along, still drains its queue soon after), at once when the device comes back
 *   online, when the server is seen to answer again (REACHABLE: a cheap probe answered, the app
 *   came back to the foreground, or one of the app's own requests succeeded), or when the reader asks;
 * - a refusal (the task unassigned or exported, the reading already recorded by someone else,
 *   the reading or task gone, the key reused, a request the server rejects): the capture is
 *   refused with the server's reason, kept on the device for the reader to see, and the queue
 *   moves on. Nothing is dropped silently: a refused capture leaves the device only when the
 *   reader dismisses it, and sent captures of a task only when the reader removes the task from
 *   the device; a capture still waiting or being sent is never removed.
 * Offline, nothing is sent; the queue waits.
 */

export type CaptureStatus = 'waiting' | 'sending' | 'sent' | 'refused';

export interface Capture {
  /** The idempotency key: one per capture, the same on every retry. */
  id: string;
  orgId: string;
  taskId: string;
  readingId: string;
  body: MeterReadingRecord;
  /** When it was captured (device clock, ms): the queue's order. */
  capturedAt: number;
  status: CaptureStatus;
  /** Failed sends of this capture so far (network or server trouble). */
  attempts: number;
  /** The server's refusal: its code and message. */
  refusal: { code: string; message: string } | null;
}

/** What an upload that did not record says: an HTTP status and the gateway's `{ code, message }`, or neither for the network. */
export interface UploadFailure {
  status?: number;
  code?: string;
  message: string;
}

/** Statuses after which sending again cannot succeed: the server said no. 401, 408 and 429 are worth retrying. */
export function isRefusal(f: UploadFailure): boolean {
  return f.status !== undefined && f.status >= 400 && f.status < 500 && f.status !== 401 && f.status !== 408 && f.status !== 429;
}

export const BACKOFF_BASE_MS = 2_000;
/** The longest wait between tries. The queue backs off only while the browser says it is online (offline it waits for the `online` event), so a longer wait would only delay a reader whose signal came back unannounced. */
export const BACKOFF_MAX_MS = 30_000;
/** The wait before the next try after `attempts` failed sends: 2 s, 4 s, 8 s, 16 s, then 30 s. */
export const backoffMs = (attempts: number) => Math.min(BACKOFF_BASE_MS * 2 ** Math.max(attempts - 1, 0), BACKOFF_MAX_MS);

export interface ReaderSyncContext {
  captures: Capture[];
  online: boolean;
}

export type ReaderSyncEvent =
  | { type: 'CAPTURE'; capture: Omit<Capture, 'status' | 'attempts' | 'refusal'> }
  | { type: 'ONLINE' }
  | { type: 'OFFLINE' }
  /** The reader asks to send now (skips the backoff wait). */
  | { type: 'RETRY' }
  /** The server answers again (a cheap probe succeeded, or the app came back to the foreground): a backing-off send is tried at once. */
  | { type: 'REACHABLE' }
  /** The reader dismisses a refused capture (having seen the server's reason); any other capture stays. */
  | { type: 'DISMISS'; id: string }
  /** The task was removed from the device: its sent captures go with it (waiting and refused ones stay). */
  | { type: 'FORGET_SENT'; taskId: string };

/** The capture to send next: the first waiting one in capture order. */
export const nextCapture = (captures: readonly Capture[]) => captures.find((c) => c.status === 'waiting' || c.status === 'sending');

const setStatus = (captures: Capture[], id: string | undefined, change: Partial<Capture>) => captures.map((c) => (c.id === id ? { ...c, ...change } : c));

const enqueue = assign<ReaderSyncContext, ReaderSyncEvent, undefined, ReaderSyncEvent, never>({
  captures: ({ context, event }) =>
    event.type === 'CAPTURE' ? [...context.captures, { ...event.capture, status: 'waiting' as const, attempts: 0, refusal: null }] : context.captures,
});

/** The queue without what DISMISS or FORGET_SENT removes. */
const removed = (captures: Capture[], event: ReaderSyncEvent) =>
  captures.filter((c) =>
    event.type === 'DISMISS' ? !(c.id === event.id && c.status === 'refused') : event.type === 'FORGET_SENT' ? !(c.taskId === event.taskId && c.status === 'sent') : true,
  );

export const readerSyncMachine = setup({
  types: {
    context: {} as ReaderSyncContext,
    events: {} as ReaderSyncEvent,
    input: {} as { captures: Capture[]; online: boolean },
  },
  actors: {
    /** PUT .../meter-readings/{readingId}/record with the Idempotency-Key header; rejects with an UploadFailure. */
    upload: fromPromise<MeterReadingAnswer, Capture>(async () => {
      throw new Error('upload not provided');
    }),
  },
  actions: {
    /** Writes the queue to the device (IndexedDB) after every change. */
    persist: (_, _params: { captures: Capture[] }) => {},
  },
  guards: {
    hasWaiting: ({ context }) => nextCapture(context.captures) !== undefined,
    isOffline: ({ context }) => !context.online,
    refused: ({ event }) => isRefusal((event as unknown as { error?: UploadFailure }).error ?? { message: '' }),
    removesSome: ({ context, event }) => removed(context.captures, event).length !== context.captures.length,
  },
  delays: {
    backoff: ({ context }) => backoffMs(nextCapture(context.captures)?.attempts ?? 1),
  },
}).createMachine({
  id: 'readerSync',
  context: ({ input }) => ({
    // a capture that was being sent when the app closed is waiting again (its key makes the resend safe)
    captures: [...input.captures].sort((a, b) => a.capturedAt - b.capturedAt).map((c) => (c.status === 'sending' ? { ...c, status: 'waiting' as const } : c)),
    online: input.online,
  }),
  initial: 'deciding',
  on: {
    CAPTURE: { target: '.deciding', actions: [enqueue, { type: 'persist', params: ({ context }) => ({ captures: context.captures }) }] },
    OFFLINE: { target: '.offline', actions: assign({ online: false }) },
    // a repeated online event changes nothing (a send under way goes on)
    ONLINE: { guard: 'isOffline', target: '.deciding', actions: assign({ online: true }) },
    // never the capture being sent (only refused or sent ones go), so a send under way goes on
    DISMISS: { guard: 'removesSome', actions: [assign({ captures: ({ context, event }) => removed(context.captures, event) }), { type: 'persist', params: ({ context }) => ({ captures: context.captures }) }] },
    FORGET_SENT: { guard: 'removesSome', actions: [assign({ captures: ({ context, event }) => removed(context.captures, event) }), { type: 'persist', params: ({ context }) => ({ captures: context.captures }) }] },
  },
  states: {
    deciding: {
      always: [{ guard: 'isOffline', target: 'offline' }, { guard: 'hasWaiting', target: 'sending' }, { target: 'idle' }],
    },
    // nothing is waiting
    idle: {},
    // the queue waits for the network
    offline: {
      // a send under way when the network went is abandoned; the capture waits (its key makes the resend safe)
      entry: [
        assign({ captures: ({ context }) => context.captures.map((c) => (c.status === 'sending' ? { ...c, status: 'waiting' as const } : c)) }),
        { type: 'persist', params: ({ context }) => ({ captures: context.captures }) },
      ],
    },
    sending: {
      entry: [
        assign({ captures: ({ context }) => setStatus(context.captures, nextCapture(context.captures)?.id, { status: 'sending' }) }),
        { type: 'persist', params: ({ context }) => ({ captures: context.captures }) },
      ],
      invoke: {
        src: 'upload',
        input: ({ context }) => nextCapture(context.captures)!,
        onDone: {
          target: 'deciding',
          actions: [
            assign({ captures: ({ context }) => setStatus(context.captures, nextCapture(context.captures)?.id, { status: 'sent', refusal: null }) }),
            { type: 'persist', params: ({ context }) => ({ captures: context.captures }) },
          ],
        },
        onError: [
          {
            guard: 'refused',
            target: 'deciding',
            actions: [
              assign({
                captures: ({ context, event }) => {
                  const f = event.error as UploadFailure;
                  return setStatus(context.captures, nextCapture(context.captures)?.id, { status: 'refused', refusal: { code: f.code ?? `HTTP_${f.status}`, message: f.message } });
                },
              }),
              { type: 'persist', params: ({ context }) => ({ captures: context.captures }) },
            ],
          },
          {
            target: 'backoff',
            actions: [
              assign({
                captures: ({ context }) => {
                  const head = nextCapture(context.captures);
                  return setStatus(context.captures, head?.id, { status: 'waiting', attempts: (head?.attempts ?? 0) + 1 });
                },
              }),
              { type: 'persist', params: ({ context }) => ({ captures: context.captures }) },
            ],
          },
        ],
      },
      on: {
        // queued behind the send under way, which goes on
        CAPTURE: { actions: [enqueue, { type: 'persist', params: ({ context }) => ({ captures: context.captures }) }] },
      },
    },
    // after a failed send: wait, then try the same capture again (a new capture waits behind it)
    backoff: {
      after: { backoff: 'deciding' },
      on: {
        RETRY: 'deciding',
        // the connection came back without an online event: no need to wait out the backoff
        REACHABLE: 'deciding',
        CAPTURE: { actions: [enqueue, { type: 'persist', params: ({ context }) => ({ captures: context.captures }) }] },
      },
    },
  },
});

export type ReaderSyncSnapshot = SnapshotFrom<typeof readerSyncMachine>;

/** Counts for the screen: how many captures wait, are being sent, were sent or refused. */
export function queueCounts(captures: readonly Capture[]): Record<CaptureStatus, number> {
  const n: Record<CaptureStatus, number> = { waiting: 0, sending: 0, sent: 0, refused: 0 };
  for (const c of captures) n[c.status]++;
  return n;
}
