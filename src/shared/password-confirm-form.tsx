import { useState, type ReactNode } from 'react';
import { Button, Group, PasswordInput, Stack, type ButtonProps } from '@mantine/core';
import { messageForError } from '../domain/messages';
import { reauthenticate } from './reauthenticate';

/**
 * What the change behind the password answers: true when done (the password field empties), a
 * message to show under the password, or false when the change failed and shows its own error.
 */
export type ConfirmedChange = boolean | string;

interface PasswordConfirmFormProps {
  submitLabel: string;
  /** Why the password is asked, under the field. */
  description?: string;
  submitColor?: string;
  submitVariant?: ButtonProps['variant'];
  /** The change's own fields: they stand in one row with the password and the button. */
  fields?: ReactNode;
  /** Checks the change's fields before the password is sent; false stops (the fields show why). */
  precheck?: () => boolean;
  /** The change, once the password is proved for this sign-in; an error it throws shows under the password. */
  onConfirmed: () => Promise<ConfirmedChange>;
  /** A Cancel button beside the submit one, disabled while the change is on its way. */
  onCancel?: () => void;
}

/**
 * A change a stolen session must not make (making recovery codes, turning two-factor
 * authentication off, a new sign-in email) asks for the current password first: the form proves it
 * (POST /api/reauthenticate) and only then runs the change; a wrong or missing password is said
 * under the field and nothing is changed.
 */
export function PasswordConfirmForm({ submitLabel, description, submitColor, submitVariant, fields, precheck, onConfirmed, onCancel }: PasswordConfirmFormProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (precheck && !precheck()) return;
    setError(undefined);
    setBusy(true);
    try {
      const problem = await reauthenticate(password);
      if (problem) return setError(problem);
      const result = await onConfirmed();
      if (result === true) setPassword('');
      else if (typeof result === 'string') setError(result);
    } catch (err) {
      setError(messageForError(err));
    } finally {
      setBusy(false);
    }
  };

  const input = (
    <PasswordInput
      label="Current password"
      description={description}
      autoComplete="current-password"
      value={password}
      onChange={(e) => setPassword(e.currentTarget.value)}
      error={error}
      maxLength={256}
      style={fields ? { flex: 1, minWidth: 220 } : undefined}
    />
  );
  const buttons = (
    <>
      <Button type="submit" color={submitColor} variant={submitVariant} loading={busy} mt={fields ? 25 : undefined}>
        {submitLabel}
      </Button>
      {onCancel && (
        <Button variant="default" onClick={onCancel} disabled={busy} mt={fields ? 25 : undefined}>
          Cancel
        </Button>
      )}
    </>
  );
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {fields ? (
        <Group gap="sm" align="flex-start" wrap="wrap">
          {fields}
          {input}
          {buttons}
        </Group>
      ) : (
        <Stack gap="sm">
          {input}
          <Group gap="sm">{buttons}</Group>
        </Stack>
      )}
    </form>
  );
}
