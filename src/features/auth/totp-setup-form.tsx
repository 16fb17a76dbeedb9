import { useEffect, useState } from 'react';
import { Code, Image, Text } from '@mantine/core';
import { groupSecret } from '../../domain/totp-key';
import { AuthCodeInput } from './auth-code-input';
import { BackToLoginButton, FormCard } from './form-card';

/**
 * The TOTP_SETUP mode of the login view: the account must use two-factor authentication (a site
 * admin, or a manager of an organisation that requires it) and has none yet, so the sign-in shows
 * the new authenticator's key, as a QR code and as text, and asks for its first code.
 */
export function TotpSetupForm({
  secret,
  uri,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  secret: string;
  uri: string;
  busy: boolean;
  error: string | null;
  onSubmit: (code: string) => void;
  onCancel: () => void;
}) {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // drawn in the browser: the key goes nowhere else (the QR library loads only for this step)
    import('qrcode')
      .then((m) => m.default.toDataURL(uri, { margin: 1, width: 200 }))
      .then((url) => live && setQr(url))
      .catch(() => live && setQr(null));
    return () => {
      live = false;
    };
  }, [uri]);
  return (
    <FormCard
      title="Set up two-factor authentication"
      subtitle="Your account must use two-factor authentication. Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password), or type the key into it, then enter the 6-digit code it shows."
      error={error}
    >
      <AuthCodeInput busy={busy} maxLength={8} onSubmit={onSubmit}>
        {qr && <Image src={qr} alt="QR code for your authenticator app" w={200} h={200} />}
        <Text size="sm">
          Key: <Code data-testid="totp-setup-secret">{groupSecret(secret)}</Code>
        </Text>
      </AuthCodeInput>
      <BackToLoginButton onCancel={onCancel} />
    </FormCard>
  );
}
