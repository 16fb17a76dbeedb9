import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { CreateTaskRequest, TaskType } from '../src/contract/downlink-task.schema';
import { TASK_MESSAGES } from '../src/domain/remote-tasks';

/**
 * The Create Remote Task modal (sensor-setup 2, 8): closed; OPEN shows the task-type select with
 * the allowed types (the first chosen), or 'You cannot create more remote tasks...' when none is
 * left; SUBMIT sends the form's task; success closes with 'Remote task created.', a failure stays
 * in the form with the section 8 message for its code.
 */

export interface CreateTaskContext {
  allowed: TaskType[];
  taskType: TaskType | null;
  formError: string | null;
  notice: string | null;
}

export type CreateTaskEvent =
  | { type: 'OPEN'; allowed: TaskType[] }
  | { type: 'CLOSE' }
  | { type: 'SELECT_TYPE'; taskType: TaskType }
  | { type: 'SUBMIT'; request: CreateTaskRequest };

/** Section 8: the message a failed creation shows. */
export function createFailureMessage(error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'DUPLICATE_ALARM_CONFIG_TASK' || code === 'ALARM_SETTINGS_CONFLICT') return TASK_MESSAGES.stateChanged;
  if (code === 'UNCHANGED') return TASK_MESSAGES.unchanged;
  if (code === 'TASK_LIMIT_REACHED') return TASK_MESSAGES.noTypeLeft;
  return TASK_MESSAGES.createFailed;
}

export const createTaskMachine = setup({
  types: { context: {} as CreateTaskContext, events: {} as CreateTaskEvent },
  actors: {
    /** POST .../downlink-tasks */
    create: fromPromise<unknown, CreateTaskRequest>(async () => {
      throw new Error('create not provided');
    }),
  },
  guards: {
    noneAllowed: ({ event }) => event.type === 'OPEN' && event.allowed.length === 0,
    allowedType: ({ context, event }) => event.type === 'SELECT_TYPE' && context.allowed.includes(event.taskType),
    matchesType: ({ context, event }) => event.type === 'SUBMIT' && event.request.type === context.taskType,
  },
}).createMachine({
  id: 'createTask',
  context: { allowed: [], taskType: null, formError: null, notice: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN: [
          { guard: 'noneAllowed', target: 'noTypes', actions: assign({ allowed: [], taskType: null, formError: null, notice: null }) },
          {
            target: 'editing',
            actions: assign(({ event }) => (event.type === 'OPEN' ? { allowed: event.allowed, taskType: event.allowed[0], formError: null, notice: null } : {})),
          },
        ],
      },
    },
    noTypes: { on: { CLOSE: 'closed' } },
    editing: {
      on: {
        CLOSE: 'closed',
        SELECT_TYPE: { guard: 'allowedType', actions: assign(({ event }) => (event.type === 'SELECT_TYPE' ? { taskType: event.taskType, formError: null } : {})) },
        SUBMIT: { guard: 'matchesType', target: 'submitting' },
      },
    },
    submitting: {
      invoke: {
        id: 'create',
        src: 'create',
        input: ({ event }) => (event as Extract<CreateTaskEvent, { type: 'SUBMIT' }>).request,
        onDone: { target: 'closed', actions: assign({ notice: TASK_MESSAGES.created, formError: null }) },
        onError: { target: 'editing', actions: assign({ formError: ({ event }) => createFailureMessage(event.error) }) },
      },
    },
  },
});

export type CreateTaskSnapshot = SnapshotFrom<typeof createTaskMachine>;
