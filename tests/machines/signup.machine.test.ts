import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type EventObject, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { signupMachine, signupStep, type SignupField } from '../../machines/signup.machine';
import { NETWORK_MESSAGE } from '../../src/domain/messages';
import { SIGN_UP_MESSAGES } from '../../src/domain/sign-up-rules';
import { controlledActors, coveringPaths, essentialPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';

// Monitoring-client 2.3 (three steps; ClaimSensor, AccountSetup, Signup, Ok, Failed), 4 (claim form
// validating; sign-up checks run in order and the first failure is shown), 5 (step checks) and 8
// (sign-up codes under the matching field; server answers; unknown errors to the sign-up-failed handler).

/** What the user typed in a field, by kind; `TYPED` holds the text. */
type Kinds = { [F in SignupField]: string };
const TYPED: Record<SignupField, Record<string, string>> = {
  serial: { valid: 'c0ffee01' },
  claimCode: { valid: 'C0FFEE01-0000-4000-8000-000000000001' },
  name: { valid: ' Aroha Ngata ' },
  organisationName: { valid: 'Kauri Farms', noLetter: '---' },
  email: { valid: 'Aroha@Example.com' },
  confirmEmail: { same: 'aroha@example.com', other: 'someone@else.com' },
  password: { good: 'Str0ng-pass!', weak: 'weak' },
  confirmPassword: { same: 'Str0ng-pass!' },
};
const SENT = { serial: 'C0FFEE01', claimCode: 'c0ffee01-0000-4000-8000-000000000001', name: 'Aroha Ngata', organisationName: 'Kauri Farms', email: 'aroha@example.com', password: 'Str0ng-pass!' };

/** Server answers to POST /signup: the error, and where the spec sends the user with which message. */
const SERVER = {
  CLAIM_REFUSED: { error: { code: 'INVALID_CLAIM_CODE', status: 400, message: 'The claim code is not valid.' }, field: 'claimCode', message: SIGN_UP_MESSAGES.claimCodeInvalid },
  ORG_NAME_REFUSED: { error: { code: 'INVALID_ORG_NAME', status: 400, message: 'Name too long' }, field: 'organisationName', message: 'Name too long' },
  EMAIL_EXISTS: { error: { code: 'INVALID_EMAIL', status: 400, message: 'An account with the given email already exists.' }, field: 'email', message: SIGN_UP_MESSAGES.emailExists },
  PASSWORD_REFUSED: { error: { code: 'INVALID_PASSWORD', status: 400, message: 'Password did not conform with policy: Password must have symbol characters' }, field: 'password', message: 'Password did not conform with policy: Password must have symbol characters' },
} as const;
type ServerRefusal = keyof typeof SERVER;
const OFFLINE_ERROR = { code: 'NETWORK_ERROR', status: 0, message: 'Failed to fetch' };
const UNKNOWN_ERROR = { code: 'UNKNOWN_ERROR', status: 500, message: 'Database unavailable' };

type ModelEvent =
  | { type: 'TYPE'; field: SignupField; kind: string }
  | { type: 'NEXT' | 'BACK' | 'RETRY' }
  // how POST /claim-sensor ends
  | { type: 'CLAIMED' | 'CLAIM_INVALID' | 'CLAIM_OFFLINE' }
  // how POST /signup ends
  | { type: 'SIGNED_UP' | ServerRefusal | 'SIGNUP_OFFLINE' | 'SIGNUP_UNKNOWN' };

type Shown = { field: SignupField; message: string } | null;
/** `typedWhileLocked` only makes typing into a locked step a distinct model state, so that a path takes it. */
interface Ctx { kinds: Kinds; shown: Shown; failure: string | null; slug: string | null; typedWhileLocked: boolean }

const pick = (c: Ctx, ...checks: [SignupField, string, (k: string) => boolean][]): Shown => {
  for (const [field, message, fails] of checks) if (fails(c.kinds[field])) return { field, message };
  return null;
};
// each step's checks in the spec's order; the first failure is shown
const claimFailure = (c: Ctx) => pick(c, ['serial', SIGN_UP_MESSAGES.serialRequired, (k) => k === ''], ['claimCode', SIGN_UP_MESSAGES.claimCodeRequired, (k) => k === '']);
const accountFailure = (c: Ctx) =>
  pick(c, ['name', SIGN_UP_MESSAGES.nameRequired, (k) => k === ''], ['organisationName', SIGN_UP_MESSAGES.orgNameTooShort, (k) => k === ''], ['organisationName', SIGN_UP_MESSAGES.orgNameLetter, (k) => k === 'noLetter']);
const credentialsFailure = (c: Ctx) =>
  pick(
    c,
    ['email', SIGN_UP_MESSAGES.emailRequired, (k) => k === ''],
    ['confirmEmail', SIGN_UP_MESSAGES.emailConfirmation, (k) => k !== 'same'],
    ['password', SIGN_UP_MESSAGES.passwordRequired, (k) => k === ''],
    ['password', SIGN_UP_MESSAGES.passwordPolicy, (k) => k === 'weak'],
    ['confirmPassword', SIGN_UP_MESSAGES.passwordConfirmation, (k) => k !== 'same'],
  );


/** The wizard as the spec describes it, written without looking at the machine's configuration. */
const signupModel = setup({
  types: { context: {} as Ctx, events: {} as ModelEvent },
  guards: {
    claimFails: ({ context }) => claimFailure(context) !== null,
    accountFails: ({ context }) => accountFailure(context) !== null,
    credentialsFail: ({ context }) => credentialsFailure(context) !== null,
  },
  actions: {
    clear: assign({ shown: null, failure: null }),
    // no inputs (or disabled ones): what is typed goes nowhere
    locked: assign({ typedWhileLocked: true }),
    refuse: assign(({ event }) => {
      const { field, message } = SERVER[event.type as ServerRefusal];
      return { shown: { field, message }, failure: null };
    }),
    // editing a field clears that field's error and any step-wide failure
    type: assign(({ context, event }) => {
      const { field, kind } = event as Extract<ModelEvent, { type: 'TYPE' }>;
      return { kinds: { ...context.kinds, [field]: kind }, shown: context.shown?.field === field ? null : context.shown, failure: null };
    }),
  },
}).createMachine({
  id: 'signupModel',
  context: { kinds: { serial: '', claimCode: '', name: '', organisationName: '', email: '', confirmEmail: '', password: '', confirmPassword: '' }, shown: null, failure: null, slug: null, typedWhileLocked: false },
  initial: 'ClaimSensor',
  states: {
    ClaimSensor: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            TYPE: { actions: 'type' },
            NEXT: [{ guard: 'claimFails', actions: assign({ shown: ({ context }) => claimFailure(context) }) }, { target: 'validating', actions: 'clear' }],
          },
        },
        // inputs disabled while the claim is checked
        validating: {
          on: {
            TYPE: { actions: 'locked' },
            CLAIMED: '#signupModel.AccountSetup',
            CLAIM_INVALID: { target: 'editing', actions: assign({ shown: { field: 'claimCode', message: SIGN_UP_MESSAGES.claimCodeInvalid } }) },
            CLAIM_OFFLINE: { target: 'editing', actions: assign({ failure: NETWORK_MESSAGE }) },
          },
        },
      },
    },
    AccountSetup: {
      on: {
        TYPE: { actions: 'type' },
        NEXT: [{ guard: 'accountFails', actions: assign({ shown: ({ context }) => accountFailure(context) }) }, { target: 'Signup', actions: 'clear' }],
        BACK: { target: 'ClaimSensor', actions: 'clear' },
      },
    },
    Signup: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            TYPE: { actions: 'type' },
            NEXT: [{ guard: 'credentialsFail', actions: assign({ shown: ({ context }) => credentialsFailure(context) }) }, { target: 'submitting', actions: 'clear' }],
            BACK: { target: '#signupModel.AccountSetup', actions: 'clear' },
          },
        },
        submitting: {
          on: {
            TYPE: { actions: 'locked' },
            SIGNED_UP: { target: '#signupModel.Ok', actions: assign({ slug: 'kauri-farms' }) },
            // a refusal goes back to the step of the field it is about, shown under that field
            CLAIM_REFUSED: { target: '#signupModel.ClaimSensor', actions: 'refuse' },
            ORG_NAME_REFUSED: { target: '#signupModel.AccountSetup', actions: 'refuse' },
            EMAIL_EXISTS: { target: 'editing', actions: 'refuse' },
            PASSWORD_REFUSED: { target: 'editing', actions: 'refuse' },
            SIGNUP_OFFLINE: { target: '#signupModel.Failed', actions: assign({ failure: NETWORK_MESSAGE }) },
            // UNKNOWN_ERROR: the sign-up-failed handler with the raw message
            SIGNUP_UNKNOWN: { target: '#signupModel.Failed', actions: assign({ failure: UNKNOWN_ERROR.message }) },
          },
        },
      },
    },
    Ok: { on: { TYPE: { actions: 'locked' } } },
    Failed: { on: { TYPE: { actions: 'locked' }, RETRY: { target: 'Signup', actions: 'clear' } } },
  },
});
type ModelSnap = SnapshotFrom<typeof signupModel>;

const type = (field: SignupField, kind: string): ModelEvent => ({ type: 'TYPE', field, kind });
const pristine = (s: ModelSnap, ...fields: SignupField[]) => fields.every((f) => s.context.kinds[f] === '');

/** What a user (or the server) can do on each step, kept small so the graph stays finite and readable. */
function eventsFor(s: ModelSnap): ModelEvent[] {
  const k = s.context.kinds;
  if (s.matches({ ClaimSensor: 'editing' })) return [type('serial', 'valid'), type('claimCode', 'valid'), { type: 'NEXT' }];
  if (s.matches({ ClaimSensor: 'validating' })) return [type('serial', 'valid'), { type: 'CLAIMED' }, { type: 'CLAIM_INVALID' }, { type: 'CLAIM_OFFLINE' }];
  if (s.matches('AccountSetup')) return [type('name', 'valid'), type('organisationName', k.name ? 'valid' : 'noLetter'), { type: 'NEXT' }, ...(pristine(s, 'name', 'organisationName') ? [{ type: 'BACK' as const }] : [])];
  if (s.matches({ Signup: 'editing' })) {
    return [
      type('email', 'valid'),
      type('confirmEmail', k.email ? 'same' : 'other'),
      type('password', k.confirmEmail ? 'good' : 'weak'),
      type('confirmPassword', 'same'),
      { type: 'NEXT' },
      ...(pristine(s, 'email', 'confirmEmail', 'password', 'confirmPassword') ? [{ type: 'BACK' as const }] : []),
    ];
  }
  if (s.matches({ Signup: 'submitting' })) return [type('email', 'valid'), ...(['SIGNED_UP', 'CLAIM_REFUSED', 'ORG_NAME_REFUSED', 'EMAIL_EXISTS', 'PASSWORD_REFUSED', 'SIGNUP_OFFLINE', 'SIGNUP_UNKNOWN'] as const).map((t) => ({ type: t }))];
  return [type('email', 'valid'), { type: 'RETRY' }];
}
const EVENT_TYPES = ['TYPE', 'NEXT', 'BACK', 'RETRY', 'CLAIMED', 'CLAIM_INVALID', 'CLAIM_OFFLINE', 'SIGNED_UP', 'CLAIM_REFUSED', 'ORG_NAME_REFUSED', 'EMAIL_EXISTS', 'PASSWORD_REFUSED', 'SIGNUP_OFFLINE', 'SIGNUP_UNKNOWN'];

function startWizard(inspect: ReturnType<typeof machineCoverage>['inspect']) {
  const ctl = controlledActors(['claimSensor', 'signup']);
  return { ctl, actor: createActor(signupMachine.provide({ actors: ctl.actors }), { inspect }).start() };
}
type Wizard = ReturnType<typeof startWizard>;

/** Makes the real wizard take the model's step. */
async function drive({ ctl, actor }: Wizard, event: ModelEvent) {
  switch (event.type) {
    case 'TYPE': actor.send({ type: 'CHANGE', field: event.field, value: TYPED[event.field][event.kind] }); break;
    case 'CLAIMED': ctl.take('claimSensor').resolve({}); break;
    case 'CLAIM_INVALID': ctl.take('claimSensor').reject({ code: 'INVALID_CLAIM_CODE', status: 400, message: 'Invalid claim code' }); break;
    case 'CLAIM_OFFLINE': ctl.take('claimSensor').reject(OFFLINE_ERROR); break;
    case 'SIGNED_UP': ctl.take('signup').resolve({ organisationSlug: 'kauri-farms' }); break;
    case 'SIGNUP_OFFLINE': ctl.take('signup').reject(OFFLINE_ERROR); break;
    case 'SIGNUP_UNKNOWN': ctl.take('signup').reject(UNKNOWN_ERROR); break;
    case 'CLAIM_REFUSED': case 'ORG_NAME_REFUSED': case 'EMAIL_EXISTS': case 'PASSWORD_REFUSED': ctl.take('signup').reject(SERVER[event.type].error); break;
    default: actor.send(event);
  }
  await flush();
}

/** The step, the values, the one message shown, and what was sent, as the model says. */
function check({ ctl, actor }: Wizard, expected: ModelSnap) {
  const real = actor.getSnapshot();
  expect(real.value).toEqual(expected.value);
  const { kinds, shown, failure, slug } = expected.context;
  expect(real.context.values).toEqual(Object.fromEntries(Object.entries(kinds).map(([f, k]) => [f, k ? TYPED[f as SignupField][k] : ''])));
  expect(real.context.errors).toEqual(shown ? { [shown.field]: shown.message } : {});
  expect(real.context.failure).toBe(failure);
  const pending = ctl.calls.map((c) => [c.src, c.input]);
  if (expected.matches({ ClaimSensor: 'validating' })) expect(pending).toEqual([['claimSensor', { serial: SENT.serial, claimCode: SENT.claimCode }]]);
  else if (expected.matches({ Signup: 'submitting' })) expect(pending).toEqual([['signup', SENT]]); // the normalised sign-up input (spec 3)
  else expect(pending).toEqual([]);
  if (expected.matches('Ok')) expect(real.context.organisationSlug).toBe(slug);
}

describe('sign-up wizard machine against its model (monitoring-client 2.3, 4, 5, 8)', () => {
  const paths = documentedPaths('signup', essentialPaths(signupModel, coveringPaths(createTestModel(signupModel, { events: eventsFor as never }))));
  const coverage = machineCoverage(signupMachine);

  it('the paths reach every state and take every transition of the model', () => {
    expect(modelUncovered(signupModel, paths)).toEqual({ states: [], transitions: [] });
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const wizard = startWizard(coverage.inspect);
    const exec = ({ event }: { event: EventObject }) => drive(wizard, event as ModelEvent);
    await path.test({ events: Object.fromEntries(EVENT_TYPES.map((t) => [t, exec])) as never, states: { '*': (s) => check(wizard, s as ModelSnap) } });
    wizard.actor.stop();
  });

  // runs after the paths (tests run in order): they went through all of the real machine
  it('the paths exercised every state and transition of the real machine', () => {
    expect(coverage.uncovered()).toEqual({ states: [], transitions: [] });
  });
});

describe('sign-up checks and server answers (monitoring-client 5, 8)', () => {
  const fill = (a: ReturnType<typeof start>, values: Partial<Record<SignupField, string>>) => {
    for (const [field, value] of Object.entries(values)) a.send({ type: 'CHANGE', field: field as SignupField, value });
  };
  const start = () => {
    const ctl = controlledActors(['claimSensor', 'signup']);
    return Object.assign(createActor(signupMachine.provide({ actors: ctl.actors })).start(), { ctl });
  };
  const toStep3 = async () => {
    const a = start();
    fill(a, { serial: TYPED.serial.valid, claimCode: TYPED.claimCode.valid });
    a.send({ type: 'NEXT' });
    a.ctl.take('claimSensor').resolve({});
    await flush();
    fill(a, { name: TYPED.name.valid, organisationName: TYPED.organisationName.valid });
    a.send({ type: 'NEXT' });
    return a;
  };

  it('step 3 checks email, confirm email, password, confirm password in that order', async () => {
    const a = await toStep3();
    expect(signupStep(a.getSnapshot())).toBe('Signup');
    const expectFirst = (field: SignupField, message: string) => {
      a.send({ type: 'NEXT' });
      expect(a.getSnapshot().context.errors).toEqual({ [field]: message });
    };
    expectFirst('email', SIGN_UP_MESSAGES.emailRequired);
    fill(a, { email: TYPED.email.valid, confirmEmail: 'x@y.nz' });
    expectFirst('confirmEmail', SIGN_UP_MESSAGES.emailConfirmation);
    fill(a, { confirmEmail: 'aroha@example.com', password: 'short' });
    expectFirst('password', SIGN_UP_MESSAGES.passwordPolicy);
    fill(a, { password: TYPED.password.good, confirmPassword: 'different' });
    expectFirst('confirmPassword', SIGN_UP_MESSAGES.passwordConfirmation);
  });

  it('an existing account comes back under the email field as "already exists"', async () => {
    const a = await toStep3();
    fill(a, { email: TYPED.email.valid, confirmEmail: TYPED.email.valid, password: TYPED.password.good, confirmPassword: TYPED.password.good });
    a.send({ type: 'NEXT' });
    a.ctl.take('signup').reject({ code: 'INVALID_EMAIL', message: 'User already exists' });
    await flush();
    expect(a.getSnapshot().matches({ Signup: 'editing' })).toBe(true);
    expect(a.getSnapshot().context.errors).toEqual({ email: SIGN_UP_MESSAGES.emailExists });
  });

  it('step 2 requires a name of at most 60 characters and a valid organisation name', async () => {
    const a = start();
    fill(a, { serial: TYPED.serial.valid, claimCode: TYPED.claimCode.valid });
    a.send({ type: 'NEXT' });
    a.ctl.take('claimSensor').resolve({});
    await flush();
    fill(a, { name: 'x'.repeat(61) });
    a.send({ type: 'NEXT' });
    expect(a.getSnapshot().context.errors).toEqual({ name: SIGN_UP_MESSAGES.nameTooLong });
    fill(a, { name: 'x'.repeat(60), organisationName: '!!' });
    a.send({ type: 'NEXT' });
    expect(a.getSnapshot().context.errors).toEqual({ organisationName: SIGN_UP_MESSAGES.orgNameSymbols });
  });
});
