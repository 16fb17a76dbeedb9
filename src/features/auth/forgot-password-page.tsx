import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowLeft, IconAt, IconNumbers } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import { Link, useNavigate } from 'react-router-dom';
import type { AuthRef } from './auth-ref';
import { FormCard } from './form-card';
import { NewPasswordFields } from './new-password-form';

/** /forgot-password (monitoring-client 2.2): the email, then the emailed numeric code with a new password and its confirmation. */
export function ForgotPasswordPage({ auth, preventUserExistenceErrors = true }: { auth: AuthRef; /** the identity endpoint answers unknown addresses as known ones */ preventUserExistenceErrors?: boolean }) {
  const snapshot = useSelector(auth, (s) => s);
  const navigate = useNavigate();
  const entered = useRef(false);
  const inReset = snapshot.matches({ unauthenticated: 'reset' });

  useEffect(() => {
    auth.send({ type: 'FORGOT_PASSWORD' });
  }, [auth]);
  useEffect(() => {
    // Once the reset is over (the password changed), the login form shows the result.
    if (inReset) entered.current = true;
    else if (entered.current && snapshot.matches({ unauthenticated: 'login' })) navigate('/login', { replace: true });
  }, [inReset, snapshot, navigate]);

  const step2 = snapshot.matches({ unauthenticated: { reset: 'enterCode' } }) || snapshot.matches({ unauthenticated: { reset: 'confirming' } });
  const { error, email } = snapshot.context;
  return step2 ? (
    <CodeStep
      email={email}
      maybeUnknown={preventUserExistenceErrors}
      error={error}
      busy={snapshot.matches({ unauthenticated: { reset: 'confirming' } })}
      onSubmit={(code, password, confirmation) => auth.send({ type: 'CONFIRM_RESET', code, password, confirmation })}
      onResend={() => auth.send({ type: 'REQUEST_CODE', email })}
    />
  ) : (
    <EmailStep error={error} busy={snapshot.matches({ unauthenticated: { reset: 'sendingCode' } })} initialEmail={email} onSubmit={(value) => auth.send({ type: 'REQUEST_CODE', email: value })} />
  );
}

const BackToLogin = () => (
  <Group justify="center">
    <Anchor component={Link} to="/login" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} /> Back to login
      </Group>
    </Anchor>
  </Group>
);

function EmailStep({ error, busy, initialEmail, onSubmit }: { error: string | null; busy: boolean; initialEmail: string; onSubmit: (email: string) => void }) {
  const [email, setEmail] = useState(initialEmail);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(email);
  };
  return (
    <FormCard title="Reset your password" subtitle="Enter the email address of your account and we will email you a code to reset your password." error={error}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" type="email" autoComplete="username" leftSection={<IconAt size={16} />} value={email} onChange={(e) => setEmail(e.currentTarget.value)} disabled={busy} autoFocus />
          <Button type="submit" size="md" fullWidth loading={busy} disabled={!email.trim()}>
            Send code
          </Button>
        </Stack>
      </form>
      <BackToLogin />
    </FormCard>
  );
}

function CodeStep({ email, maybeUnknown, error, busy, onSubmit, onResend }: { email: string; maybeUnknown: boolean; error: string | null; busy: boolean; onSubmit: (code: string, password: string, confirmation: string) => void; onResend: () => void }) {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(code, password, confirmation);
  };
  return (
    <FormCard
      title="Check your email"
      subtitle={
        maybeUnknown ? (
          // the identity endpoint answers alike for every address, so a code is promised only if the account exists
          <>
            If an account exists for <b>{email}</b>, we have sent a code to it. Enter it below with your new password.
          </>
        ) : (
          <>
            We sent a code to <b>{email}</b>. Enter it below with your new password.
          </>
        )
      }
      error={error}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Code" inputMode="numeric" autoComplete="one-time-code" leftSection={<IconNumbers size={16} />} value={code} onChange={(e) => setCode(e.currentTarget.value)} disabled={busy} autoFocus />
          <NewPasswordFields busy={busy} password={password} confirmation={confirmation} onPassword={setPassword} onConfirmation={setConfirmation} />
          <Button type="submit" size="md" fullWidth loading={busy}>
            Change password
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center" c="dimmed">
        Didn&apos;t get it?{' '}
        <Anchor component="button" type="button" onClick={onResend} disabled={busy}>
          Send a new code
        </Anchor>
      </Text>
      <BackToLogin />
    </FormCard>
  );
}
