import { useEffect, useRef, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconHelp } from '@tabler/icons-react';
import { useActorRef, useSelector } from '@xstate/react';
import { useNavigate } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import type { authMachine } from '../../../machines/auth.machine';
import { signupStep, type SignupField } from '../../../machines/signup.machine';
import { liveSignupMachine } from './signup-actors';
import { StepProgress } from './step-progress';
import { AccountStep, CLAIM_BUSY, ClaimStep, CredentialsStep, StepActions } from './signup-steps';

type AuthRef = ActorRefFrom<typeof authMachine>;

const STEPS = ['ClaimSensor', 'AccountSetup', 'Signup'] as const;
const TITLES = { ClaimSensor: 'Claim a sensor', AccountSetup: 'Account details', Signup: 'Complete sign up' } as const;
const INTROS = {
  ClaimSensor: 'Enter the serial number and claim code from the licence card that came with your sensor.',
  AccountSetup: 'Tell us who you are and name the organisation your sensors will belong to.',
  Signup: 'Choose the email and password you will log in with.',
} as const;

/** /signup (monitoring-client 2.3): the three-step wizard; when it is Ok the auth machine signs the new user in. */
export function SignupPage({ auth, supportHref }: { auth: AuthRef; supportHref: string }) {
  const wizard = useActorRef(liveSignupMachine);
  const snapshot = useSelector(wizard, (s) => s);
  const authError = useSelector(auth, (s) => (s.matches({ unauthenticated: 'login' }) ? s.context.error : null));
  const navigate = useNavigate();
  const step = signupStep(snapshot);
  const { values, errors, failure } = snapshot.context;
  const signedIn = useRef(false);

  // opening the wizard leaves whatever form the auth machine was on, and its message behind
  useEffect(() => auth.send({ type: 'SHOW_SIGNUP' }), [auth]);

  useEffect(() => {
    if (step !== 'Ok' || signedIn.current) return;
    signedIn.current = true;
    // the machine may have moved since (another form in this tab): LOGIN is heard only in login
    auth.send({ type: 'SHOW_SIGNUP' });
    auth.send({ type: 'LOGIN', email: values.email, password: values.password });
  }, [step, auth, values.email, values.password]);

  const cancel = () => navigate('/login');
  const send = (type: 'NEXT' | 'BACK') => wizard.send({ type });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send('NEXT');
  };
  const stepProps = { values, errors, onChange: (field: SignupField, value: string) => wizard.send({ type: 'CHANGE', field, value }) };
  const active = step === 'Ok' ? 3 : step === 'Failed' ? 2 : STEPS.indexOf(step);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={26}>
          Create your Tidewatch account
        </Title>
        <Text c="dimmed" size="sm">
          Three short steps and your sensor is on the map.
        </Text>
      </Stack>
      <StepProgress titles={STEPS.map((s) => TITLES[s])} active={active} />

      {step === 'Ok' ? (
        authError ? (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Your account is ready, but we could not log you in">
            {authError}{' '}
            <Anchor href="/login">Go to login</Anchor>
          </Alert>
        ) : (
          <Group justify="center" py="xl" gap="sm">
            <Loader size="sm" />
            <Text>Your account is ready. Logging you in...</Text>
          </Group>
        )
      ) : step === 'Failed' ? (
        <Stack>
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Sign up failed" role="alert">
            {failure}
          </Alert>
          <Group justify="space-between">
            <Button variant="subtle" color="gray" onClick={cancel}>
              Cancel
            </Button>
            <Button onClick={() => wizard.send({ type: 'RETRY' })}>Try again</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Stack gap={2}>
              <Title order={3} fz="lg">
                {TITLES[step]}
              </Title>
              <Text size="sm" c="dimmed">
                {INTROS[step]}
              </Text>
            </Stack>
            {failure && (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
                {failure}
              </Alert>
            )}
            {step === 'ClaimSensor' && <ClaimStep {...stepProps} busy={snapshot.matches({ ClaimSensor: 'validating' })} />}
            {step === 'AccountSetup' && <AccountStep {...stepProps} busy={false} />}
            {step === 'Signup' && <CredentialsStep {...stepProps} busy={snapshot.matches({ Signup: 'submitting' })} />}
            <StepActions
              busy={snapshot.matches({ ClaimSensor: 'validating' }) || snapshot.matches({ Signup: 'submitting' })}
              next={step === 'Signup' ? 'Sign up' : 'Next'}
              busyText={step === 'ClaimSensor' ? CLAIM_BUSY : 'Signing up...'}
              onBack={step === 'ClaimSensor' ? undefined : () => send('BACK')}
              onCancel={cancel}
            />
          </Stack>
        </form>
      )}
      <Group justify="center" gap={6}>
        <IconHelp size={16} color="var(--mantine-color-dimmed)" />
        <Anchor href={supportHref} size="sm">
          Need help
        </Anchor>
      </Group>
    </Stack>
  );
}
