import { useEffect, useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { IconAt } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import { Link, useSearchParams } from 'react-router-dom';
import type { AuthRef } from './auth-ref';
import { FormCard } from './form-card';
import { NewPasswordFields } from './new-password-form';
import { RecoveryCodesOffer } from './recovery-codes-offer-lazy';
import { TotpSetupForm } from './totp-setup-form';

/**
 * /accept?email=&code= : an invited user sets a password (answering the identity service's
 * new-password challenge with the temporary code) and lands in the organisation. An invitation to
 * manage an organisation that requires two-factor authentication sets the authenticator up here next,
 * and is offered recovery codes for it.
 */
export function AcceptPage({ auth }: { auth: AuthRef }) {
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const code = params.get('code') ?? '';
  const snapshot = useSelector(auth, (s) => s);
  const busy = !snapshot.matches('unauthenticated') || snapshot.matches({ unauthenticated: { accepting: 'working' } });
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  useEffect(() => {
    auth.send({ type: 'SHOW_LOGIN' });
  }, [auth]);

  if (!email || !code) {
    return (
      <FormCard title="This invitation link is incomplete" subtitle="Open the link in your invitation email again, or ask your organisation's admin to resend the invitation.">
        <Anchor component={Link} to="/login" ta="center">
          Go to login
        </Anchor>
      </FormCard>
    );
  }
  const setup = snapshot.context.totpSetup;
  if (setup && (snapshot.matches({ unauthenticated: 'totpSetup' }) || snapshot.matches({ unauthenticated: 'confirmingTotpSetup' }))) {
    return (
      <TotpSetupForm
        secret={setup.secret}
        uri={setup.uri}
        busy={snapshot.matches({ unauthenticated: 'confirmingTotpSetup' })}
        error={snapshot.context.error}
        onSubmit={(totp) => auth.send({ type: 'SUBMIT_TOTP', code: totp })}
        onCancel={() => auth.send({ type: 'SHOW_LOGIN' })}
      />
    );
  }
  if (snapshot.matches('recoveryCodesOffer')) return <RecoveryCodesOffer onContinue={() => auth.send({ type: 'CONTINUE' })} />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    auth.send({ type: 'ACCEPT_INVITE', email, code, password, confirmation });
  };
  return (
    <FormCard title="Accept your invitation" subtitle="You have been invited to an organisation on Tidewatch. Choose a password to finish setting up your account." error={snapshot.matches({ unauthenticated: 'accepting' }) ? snapshot.context.error : null}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" value={email} readOnly leftSection={<IconAt size={16} />} />
          <NewPasswordFields busy={busy} password={password} confirmation={confirmation} onPassword={setPassword} onConfirmation={setConfirmation} />
          <Button type="submit" size="md" fullWidth loading={busy}>
            Accept invitation
          </Button>
        </Stack>
      </form>
    </FormCard>
  );
}
