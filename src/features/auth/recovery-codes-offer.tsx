import { Button, Group } from '@mantine/core';
import { RecoveryCodes } from '../../shared/recovery-codes';
import { FormCard } from './form-card';

/**
 * The RECOVERY_CODES mode of the login view: the authenticator just set up at sign-in is on, and
 * before the app opens the user is offered recovery codes for it, the same offer (password first,
 * codes shown once) as Account settings makes. Continue opens the app, with or without them.
 */
export function RecoveryCodesOffer({ onContinue }: { onContinue: () => void }) {
  return (
    <FormCard
      title="Two-factor authentication is on"
      subtitle="If you lose your authenticator app, a recovery code signs you in once in place of its code. Make them now and keep them somewhere safe, or later in Account settings."
    >
      <RecoveryCodes />
      <Group>
        <Button onClick={onContinue}>Continue</Button>
      </Group>
    </FormCard>
  );
}
