import { AuthCodeInput } from './auth-code-input';
import { BackToLoginButton, FormCard } from './form-card';

/** The TOTP mode of the login view: the second step of a sign-in with MFA on. */
export function TotpCodeForm({ busy, error, onSubmit, onCancel }: { busy: boolean; error: string | null; onSubmit: (code: string) => void; onCancel: () => void }) {
  return (
    <FormCard
      title="Enter your authentication code"
      subtitle="Open your authenticator app and enter the 6-digit code it shows for Tidewatch. Lost your authenticator? Enter one of your recovery codes instead."
      error={error}
    >
      <AuthCodeInput busy={busy} maxLength={24} onSubmit={onSubmit} />
      <BackToLoginButton onCancel={onCancel} />
    </FormCard>
  );
}
