import { useState, type ReactNode } from 'react';
import { Button, Stack, TextInput } from '@mantine/core';

/**
 * The authenticator code of the login view's code steps (TOTP and TOTP setup): the field and its
 * Verify button as one form, sending what was typed; `children` come before the field (the new
 * key's QR code). The code step allows a recovery code's length, the setup step a code's.
 */
export function AuthCodeInput({ busy, maxLength, onSubmit, children }: { busy: boolean; maxLength: number; onSubmit: (code: string) => void; children?: ReactNode }) {
  const [code, setCode] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(code);
      }}
      noValidate
    >
      <Stack gap="md">
        {children}
        <TextInput
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="123456"
          maxLength={maxLength}
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
  );
}
