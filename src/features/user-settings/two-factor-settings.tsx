import { useEffect, useState } from 'react';
import { Alert, Button, Code, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconShieldCheck } from '@tabler/icons-react';
import { fetchMFAPreference, setUpTOTP, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import QRCode from 'qrcode';
import { messageForError } from '../../domain/messages';
import { USER_SETTINGS_MESSAGES } from '../../domain/user-settings';
import { PasswordConfirmForm } from '../../shared/password-confirm-form';
import { RecoveryCodes } from '../../shared/recovery-codes';
import { groupSecret } from '../../domain/totp-key';
import { PRODUCT_NAME } from '../../shared/page-title';


type Setup = { secret: string; qr: string };


/**
 * Two-factor authentication (TOTP) in Account settings: set up with a QR code or the secret as
 * text, prove it with a code, and turn it off with the current password (the server asks for it
 * again before it lets the second factor go).
 */
export function TwoFactorSettings({ email }: { email: string }) {
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    fetchMFAPreference()
      .then((p) => live && setEnabled(p.enabled?.includes('TOTP') ?? false))
      .catch(() => live && setEnabled(false));
    return () => {
      live = false;
    };
  }, []);

  const run = async (work: () => Promise<void>) => {
    setError(undefined);
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  const begin = () =>
    run(async () => {
      try {
        const details = await setUpTOTP();
        const uri = details.getSetupUri(PRODUCT_NAME, email).href;
        setSetup({ secret: details.sharedSecret, qr: await QRCode.toDataURL(uri, { margin: 1, width: 200 }) });
        setCode('');
      } catch (err) {
        setError(messageForError(err));
      }
    });

  const verify = () =>
    run(async () => {
      const digits = code.replace(/\s/g, '');
      if (!/^\d{6}$/.test(digits)) return setError(USER_SETTINGS_MESSAGES.mfaCodeFormat);
      try {
        await verifyTOTPSetup({ code: digits });
        await updateMFAPreference({ totp: 'PREFERRED' });
        setSetup(null);
        setEnabled(true);
        notifications.show({ color: 'teal', message: USER_SETTINGS_MESSAGES.mfaTurnedOn, autoClose: 4000 });
      } catch (err) {
        const name = (err as { name?: string }).name;
        setError(name === 'EnableSoftwareTokenMFAException' || name === 'CodeMismatchException' ? USER_SETTINGS_MESSAGES.mfaCodeWrong : messageForError(err));
      }
    });

  const turnOff = async () => {
    await updateMFAPreference({ totp: 'DISABLED' });
    setTurningOff(false);
    setEnabled(false);
    notifications.show({ color: 'teal', message: USER_SETTINGS_MESSAGES.mfaTurnedOff, autoClose: 4000 });
    return true;
  };

  return (
    <Stack gap="sm" pt="lg" style={{ borderTop: '1px solid var(--tw-border)' }} data-testid="two-factor">
      <Text fw={600}>Two-factor authentication</Text>
      {enabled === null ? (
        <Text size="sm" c="dimmed">
          Checking…
        </Text>
      ) : enabled ? (
        <>
          <Alert color="teal" icon={<IconShieldCheck size={18} />}>
            {USER_SETTINGS_MESSAGES.mfaOn}
          </Alert>
          <RecoveryCodes />
          {turningOff ? (
            <PasswordConfirmForm
              submitLabel="Turn off two-factor authentication"
              submitColor="red"
              description="Confirm it is you before the second step is removed."
              onConfirmed={turnOff}
              onCancel={() => setTurningOff(false)}
            />
          ) : (
            <Group>
              <Button variant="default" onClick={() => setTurningOff(true)}>
                Turn off
              </Button>
            </Group>
          )}
        </>
      ) : setup ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void verify();
          }}
        >
          <Stack gap="sm">
            <Text size="sm">Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password), or type the key into it.</Text>
            <Image src={setup.qr} alt="QR code for your authenticator app" w={200} h={200} />
            <Text size="sm">
              Key: <Code data-testid="totp-secret">{groupSecret(setup.secret)}</Code>
            </Text>
            <Group gap="sm" align="flex-start" wrap="wrap">
              <TextInput label="Code from the app" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.currentTarget.value)} error={error} maxLength={8} w={200} />
              <Button type="submit" loading={busy} mt={25}>
                Verify and turn on
              </Button>
              <Button variant="default" onClick={() => (setSetup(null), setError(undefined))} disabled={busy} mt={25}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <>
          <Text size="sm">{USER_SETTINGS_MESSAGES.mfaOff}</Text>
          {error && (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          )}
          <Group>
            <Button variant="default" loading={busy} onClick={() => void begin()}>
              Set up two-factor authentication
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
