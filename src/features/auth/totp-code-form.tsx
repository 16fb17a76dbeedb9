import { useState, type FormEvent } from 'react';
import { Button, Stack, TextInput } from '@mantine/core';
import { BackToLoginButton, FormCard } from './form-card';

/** The TOTP mode of the login view: the second step of a sign-in with MFA on. */
export function TotpCodeForm({ busy, error, onSubmit, onCancel }: { busy: boolean; error: string | null; onSubmit: (code: string) => void; onCancel: () => void }) {
  const [code, setCode] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(code);
  };
  return (
    <FormCard
      title="Enter your authentication code"
      subtitle="Open your authenticator app and enter the 6-digit code it shows for Tidewatch. Lost your authenticator? Enter one of your recovery codes instead."
      error={error}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Authentication code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            maxLength={24}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            disabled={busy}
            autoFocus
          />
          <Button type="submit" size="md" fullWidth loading={busy}>
            Verify
          </Button>
        </Stack>
      </form>
      <BackToLoginButton onCancel={onCancel} />
    </FormCard>
  );
}
