import { useState, type FormEvent } from 'react';
import { Button, PasswordInput, Stack } from '@mantine/core';
import { PASSWORD_POLICY_MESSAGE } from '../../domain/password-messages';
import { BackToLoginButton, FormCard } from './form-card';

/** A new password and its confirmation: the forced new-password form, the reset's second step and /accept share it. */
export function NewPasswordFields({ busy, password, confirmation, onPassword, onConfirmation }: { busy: boolean; password: string; confirmation: string; onPassword: (v: string) => void; onConfirmation: (v: string) => void }) {
  return (
    <>
      <PasswordInput label="New password" autoComplete="new-password" description={PASSWORD_POLICY_MESSAGE} value={password} onChange={(e) => onPassword(e.currentTarget.value)} disabled={busy} />
      <PasswordInput label="Confirm new password" autoComplete="new-password" value={confirmation} onChange={(e) => onConfirmation(e.currentTarget.value)} disabled={busy} />
    </>
  );
}

/** The NEW_PASSWORD mode: the account must choose a password before it can be used. */
export function NewPasswordForm({ busy, error, onSubmit, onCancel }: { busy: boolean; error: string | null; onSubmit: (password: string, confirmation: string) => void; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(password, confirmation);
  };
  return (
    <FormCard title="Choose a new password" subtitle="Your account needs a new password before you can continue." error={error}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <NewPasswordFields busy={busy} password={password} confirmation={confirmation} onPassword={setPassword} onConfirmation={setConfirmation} />
          <Button type="submit" size="md" fullWidth loading={busy}>
            Set new password
          </Button>
        </Stack>
      </form>
      <BackToLoginButton onCancel={onCancel} />
    </FormCard>
  );
}
