import type { ReactNode } from 'react';
import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAt, IconBuilding, IconKey, IconLock, IconUser, IconBarcode } from '@tabler/icons-react';
import type { SignupField, SignupValues } from '../../../machines/signup.machine';
import { busyLabel } from '../../../machines/claim-form.machine';

export interface StepProps {
  values: SignupValues;
  errors: Partial<Record<SignupField, string>>;
  busy: boolean;
  onChange: (field: SignupField, value: string) => void;
}

/** One labelled input bound to a wizard field, its error shown underneath. */
function Field({ field, label, icon, p, password, placeholder, autoComplete, description }: { field: SignupField; label: string; icon: ReactNode; p: StepProps; password?: boolean; placeholder?: string; autoComplete?: string; description?: string }) {
  const Input = password ? PasswordInput : TextInput;
  return (
    <Input
      label={label}
      leftSection={icon}
      placeholder={placeholder}
      autoComplete={autoComplete}
      description={description}
      value={p.values[field]}
      error={p.errors[field]}
      disabled={p.busy}
      onChange={(e) => p.onChange(field, e.currentTarget.value)}
    />
  );
}

export function ClaimStep(p: StepProps) {
  return (
    <Stack gap="md">
      <Field field="serial" label="Serial number" icon={<IconBarcode size={16} />} placeholder="e.g. 1A2B3C4D" description="Printed on the sensor and on your licence card." p={p} />
      <Field field="claimCode" label="Claim code" icon={<IconKey size={16} />} placeholder="xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" description="The code on your licence card." p={p} />
    </Stack>
  );
}

export function AccountStep(p: StepProps) {
  return (
    <Stack gap="md">
      <Field field="name" label="Name" icon={<IconUser size={16} />} placeholder="Your full name" autoComplete="name" p={p} />
      <Field field="organisationName" label="Organisation Name" icon={<IconBuilding size={16} />} placeholder="e.g. Riverbend Water" autoComplete="organization" p={p} />
    </Stack>
  );
}

export function CredentialsStep(p: StepProps) {
  return (
    <Stack gap="md">
      <Field field="email" label="Email" icon={<IconAt size={16} />} autoComplete="email" placeholder="you@example.com" p={p} />
      <Field field="confirmEmail" label="Confirm email" icon={<IconAt size={16} />} autoComplete="off" p={p} />
      <Field field="password" label="Password" icon={<IconLock size={16} />} password autoComplete="new-password" description="At least 8 characters with lowercase, uppercase, numeric and symbol characters." p={p} />
      <Field field="confirmPassword" label="Confirm password" icon={<IconLock size={16} />} password autoComplete="new-password" p={p} />
    </Stack>
  );
}

/** Cancel and Back on the left, the step's primary action on the right. */
export function StepActions({ busy, next, busyText, onBack, onCancel }: { busy: boolean; next: string; busyText: string; onBack?: () => void; onCancel: () => void }) {
  return (
    <Group justify="space-between" mt="xs">
      <Group gap="xs">
        <Button variant="subtle" color="gray" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        {onBack && (
          <Button variant="default" onClick={onBack} disabled={busy}>
            Back
          </Button>
        )}
      </Group>
      <Button type="submit" disabled={busy} miw={120}>
        {busy ? busyText : next}
      </Button>
    </Group>
  );
}

export const CLAIM_BUSY = busyLabel('claim');
