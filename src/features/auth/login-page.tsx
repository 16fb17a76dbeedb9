import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useSearchParams } from 'react-router-dom';
import { authViewMode } from '../../../machines/auth.machine';
import type { AuthRef } from './auth-ref';
import { LoginForm } from './login-form';
import { NewPasswordForm } from './new-password-form';
import { RecoveryCodesOffer } from './recovery-codes-offer-lazy';
import { TotpCodeForm } from './totp-code-form';
import { TotpSetupForm } from './totp-setup-form';

/**
 * /login (monitoring-client 2.2): the LOGIN, NEW_PASSWORD, TOTP, TOTP_SETUP, RECOVERY_CODES and LOADING modes of the auth machine.
 * With ?email=&code= in the address (an invitation link) it logs in at once.
 */
export function LoginPage({ auth }: { auth: AuthRef }) {
  const snapshot = useSelector(auth, (s) => s);
  const mode = authViewMode(snapshot);
  const [params, setParams] = useSearchParams();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    auth.send({ type: 'SHOW_LOGIN' });
    const email = params.get('email');
    const code = params.get('code');
    if (email && code) {
      auth.send({ type: 'LOGIN', email, password: code });
      // The code must not stay in the address bar or the history.
      const rest = new URLSearchParams(params);
      rest.delete('email');
      rest.delete('code');
      setParams(rest, { replace: true });
    }
  }, [auth, params, setParams]);

  if (mode === 'NEW_PASSWORD' || snapshot.matches({ unauthenticated: 'settingPassword' })) {
    return (
      <NewPasswordForm
        busy={mode === 'LOADING'}
        error={snapshot.context.error}
        onSubmit={(password, confirmation) => auth.send({ type: 'SUBMIT_NEW_PASSWORD', password, confirmation })}
        onCancel={() => auth.send({ type: 'SHOW_LOGIN' })}
      />
    );
  }
  if (mode === 'TOTP' || snapshot.matches({ unauthenticated: 'confirmingTotp' })) {
    return (
      <TotpCodeForm
        busy={mode === 'LOADING'}
        error={snapshot.context.error}
        onSubmit={(code) => auth.send({ type: 'SUBMIT_TOTP', code })}
        onCancel={() => auth.send({ type: 'SHOW_LOGIN' })}
      />
    );
  }
  const setup = snapshot.context.totpSetup;
  if (setup && (mode === 'TOTP_SETUP' || snapshot.matches({ unauthenticated: 'confirmingTotpSetup' }))) {
    return (
      <TotpSetupForm
        secret={setup.secret}
        uri={setup.uri}
        busy={mode === 'LOADING'}
        error={snapshot.context.error}
        onSubmit={(code) => auth.send({ type: 'SUBMIT_TOTP', code })}
        onCancel={() => auth.send({ type: 'SHOW_LOGIN' })}
      />
    );
  }
  if (mode === 'RECOVERY_CODES') return <RecoveryCodesOffer onContinue={() => auth.send({ type: 'CONTINUE' })} />;
  return (
    <LoginForm
      busy={mode === 'LOADING'}
      error={snapshot.context.error}
      notice={snapshot.context.notice}
      initialEmail={snapshot.context.email}
      onSubmit={(email, password) => auth.send({ type: 'LOGIN', email, password })}
    />
  );
}
