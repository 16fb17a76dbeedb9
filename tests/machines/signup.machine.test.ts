import { describe, expect, it } from 'vitest';
import { createActor, type EventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { signupMachine, signupStep, type SignupField, type SignupSnapshot } from '../../machines/signup.machine';
import { NETWORK_MESSAGE } from '../../src/domain/messages';
import { SIGN_UP_MESSAGES } from '../../src/domain/sign-up-rules';
import { controlledActors, coveringPaths, flush, modelMachine, replay, uncovered, type ModelEvent } from './auth-model-kit';

// Monitoring-client 2.3 (three steps, ClaimSensor/AccountSetup/Signup/Ok/Failed), 5 (checks) and 8 (sign-up codes).
const change = (field: SignupField, value: string) => ({ type: 'CHANGE', field, value });
const serverError = (code: string, message: string, status = 400) => ({ type: 'xstate.error.actor.signup', error: { code, message, status } });
const GOOD = {
  serial: 'c0ffee01',
  claimCode: 'C0FFEE01-0000-4000-8000-000000000001',
  name: ' Aroha Ngata ',
  organisationName: 'Kauri Farms',
  email: 'Aroha@Example.com',
  password: 'Str0ng-pass!',
};

const pristine = (s: SignupSnapshot, ...fields: SignupField[]) => fields.every((f) => s.context.values[f] === '');

/** The events a user (or the server) can cause on each step, kept small so the graph stays finite and readable. */
function eventsFor(s: SignupSnapshot): ModelEvent[] {
  const step = signupStep(s);
  const v = s.context.values;
  if (step === 'ClaimSensor') {
    return [change('serial', GOOD.serial), change('claimCode', GOOD.claimCode), { type: 'NEXT' },
      { type: 'xstate.done.actor.claimSensor', output: {} },
      { type: 'xstate.error.actor.claimSensor', error: { code: 'INVALID_CLAIM_CODE', status: 400, message: 'Invalid claim code' } },
      { type: 'xstate.error.actor.claimSensor', error: { code: 'NETWORK_ERROR', status: 0, message: 'Failed to fetch' } }];
  }
  if (step === 'AccountSetup') {
    const events: ModelEvent[] = [change('name', GOOD.name), change('organisationName', v.name ? 'Kauri Farms' : '---'), { type: 'NEXT' }];
    if (pristine(s, 'name', 'organisationName')) events.push({ type: 'BACK' });
    return events;
  }
  if (step === 'Signup') {
    const events: ModelEvent[] = [
      change('email', GOOD.email),
      change('confirmEmail', v.email ? 'aroha@example.com' : 'someone@else.com'),
      change('password', v.confirmEmail ? GOOD.password : 'weak'),
      change('confirmPassword', GOOD.password),
      { type: 'NEXT' },
      { type: 'xstate.done.actor.signup', output: { organisationSlug: 'kauri-farms' } },
      serverError('INVALID_CLAIM_CODE', 'The claim code is not valid.'),
      serverError('INVALID_ORG_NAME', 'Name too long'),
      serverError('INVALID_EMAIL', 'An account with the given email already exists.'),
      serverError('INVALID_PASSWORD', 'Password did not conform with policy: Password must have symbol characters'),
      serverError('NETWORK_ERROR', 'Failed to fetch', 0),
      serverError('UNKNOWN_ERROR', 'Database unavailable', 500),
    ];
    if (pristine(s, 'email', 'confirmEmail', 'password', 'confirmPassword')) events.push({ type: 'BACK' });
    return events;
  }
  return [{ type: 'RETRY' }];
}

describe('sign-up wizard machine (monitoring-client 2.3, 5, 8)', () => {
  const machine = modelMachine(signupMachine);
  const model = createTestModel(machine, { events: eventsFor as never });
  const paths = coveringPaths(model);

  it('has paths that reach every state and take every transition', () => {
    expect(uncovered(machine, paths)).toEqual({ states: [], transitions: [] });
  });

  it(`follows all ${paths.length} paths with the real machine and its actors`, async () => {
    for (const path of paths) {
      const { actors, take, calls } = controlledActors(['claimSensor', 'signup']);
      const actor = createActor(signupMachine.provide({ actors })).start();
      const exec = ({ event }: { event: EventObject }) => replay(actor, take, event);
      await path.test({
        events: { CHANGE: exec, NEXT: exec, BACK: exec, RETRY: exec, 'xstate.done.actor.claimSensor': exec, 'xstate.error.actor.claimSensor': exec, 'xstate.done.actor.signup': exec, 'xstate.error.actor.signup': exec } as never,
        states: {
          '*': (expected) => {
            const real = actor.getSnapshot();
            expect(real.value).toEqual(expected.value);
            expect(real.context).toEqual(expected.context);
            // At most one failure is shown at a time, under its field.
            expect(Object.keys(real.context.errors).length).toBeLessThanOrEqual(1);
          },
          'ClaimSensor.validating': () => {
            expect(calls.find((c) => c.src === 'claimSensor')?.input).toEqual({ serial: 'C0FFEE01', claimCode: 'c0ffee01-0000-4000-8000-000000000001' });
          },
          'Signup.submitting': () => {
            // POST /signup gets the normalised sign-up input (spec 3 "Sign-up input").
            expect(calls.find((c) => c.src === 'signup')?.input).toEqual({
              serial: 'C0FFEE01',
              claimCode: 'c0ffee01-0000-4000-8000-000000000001',
              name: 'Aroha Ngata',
              organisationName: 'Kauri Farms',
              email: 'aroha@example.com',
              password: GOOD.password,
            });
          },
          Ok: (s) => expect((s as SignupSnapshot).context.organisationSlug).toBe('kauri-farms'),
          Failed: (s) => expect([NETWORK_MESSAGE, 'Database unavailable']).toContain((s as SignupSnapshot).context.failure),
        },
      });
      actor.stop();
    }
  }, 120_000);
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
    fill(a, { serial: GOOD.serial, claimCode: GOOD.claimCode });
    a.send({ type: 'NEXT' });
    a.ctl.take('claimSensor').resolve({});
    await flush();
    fill(a, { name: GOOD.name, organisationName: GOOD.organisationName });
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
    fill(a, { email: GOOD.email, confirmEmail: 'x@y.nz' });
    expectFirst('confirmEmail', SIGN_UP_MESSAGES.emailConfirmation);
    fill(a, { confirmEmail: 'aroha@example.com', password: 'short' });
    expectFirst('password', SIGN_UP_MESSAGES.passwordPolicy);
    fill(a, { password: GOOD.password, confirmPassword: 'different' });
    expectFirst('confirmPassword', SIGN_UP_MESSAGES.passwordConfirmation);
  });

  it('an existing account comes back under the email field as "already exists"', async () => {
    const a = await toStep3();
    fill(a, { email: GOOD.email, confirmEmail: GOOD.email, password: GOOD.password, confirmPassword: GOOD.password });
    a.send({ type: 'NEXT' });
    a.ctl.take('signup').reject({ code: 'INVALID_EMAIL', message: 'User already exists' });
    await flush();
    expect(a.getSnapshot().matches({ Signup: 'editing' })).toBe(true);
    expect(a.getSnapshot().context.errors).toEqual({ email: SIGN_UP_MESSAGES.emailExists });
  });

  it('step 2 requires a name of at most 60 characters and a valid organisation name', async () => {
    const a = start();
    fill(a, { serial: GOOD.serial, claimCode: GOOD.claimCode });
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
