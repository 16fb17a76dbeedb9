import { useState } from 'react';
import { Alert, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailForward } from '@tabler/icons-react';
import { updateUserAttribute } from 'aws-amplify/auth';
import type { CountryCode } from 'libphonenumber-js';
import { currentUserSchema } from '../../contract/user.schema';
import { messageForError } from '../../domain/messages';
import { checkEmail } from '../../domain/sign-up-rules';
import { checkAccount, MOBILE_COUNTRIES, splitMobile, USER_SETTINGS_MESSAGES } from '../../domain/user-settings';
import { ApiError, api, regionQuery } from '../../shared/api';
import { useSession } from '../../shared/session';
import type { UserSettingsProps } from './user-settings-page';
import { TwoFactorSettings } from './two-factor-settings';
import { PasswordConfirmForm } from '../../shared/password-confirm-form';

const notice = (color: 'teal' | 'red' | 'blue', message: string) => notifications.show({ color, message, autoClose: 4000 });

/** Account (organisation-and-routes 2.2, 5, 8): name and mobile; a new email goes through verification; two-factor authentication. */
export function AccountSection({ onUserChanged }: UserSettingsProps) {
  const { user } = useSession();
  const initial = splitMobile(user.mobile);
  const [name, setName] = useState(user.name);
  const [country, setCountry] = useState<CountryCode>(initial.country);
  const [mobile, setMobile] = useState(initial.number);
  const [errors, setErrors] = useState<{ name?: string; mobile?: string }>({});
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const checked = checkAccount({ name, mobile, country }, user);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    if (!checked.changes) return notice('blue', USER_SETTINGS_MESSAGES.noChanges);
    setSaving(true);
    try {
      const updated = await api.patch(`/users/${user.cognitoIdentityId}`, checked.changes, { schema: currentUserSchema, query: regionQuery() });
      setName(updated.name);
      const split = splitMobile(updated.mobile);
      setCountry(split.country);
      setMobile(split.number);
      notice('teal', USER_SETTINGS_MESSAGES.accountUpdated);
      onUserChanged();
    } catch (err) {
      // the server's own message (spec 8); without an answer, the network message
      notice('red', USER_SETTINGS_MESSAGES.accountFailed(err instanceof ApiError && err.status > 0 ? err.message : messageForError(err)));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="xl" maw={560}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="md">
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} required maxLength={256} autoComplete="name" />
          <Group gap="sm" align="flex-start" wrap="wrap">
            <Select
              label="Country"
              data={MOBILE_COUNTRIES.map((c) => ({ value: c.code, label: c.label }))}
              value={country}
              onChange={(v) => v && setCountry(v as CountryCode)}
              allowDeselect={false}
              w={220}
            />
            <TextInput
              label="Mobile number"
              description="Optional: for SMS alerts"
              value={mobile}
              onChange={(e) => setMobile(e.currentTarget.value)}
              error={errors.mobile}
              inputMode="tel"
              autoComplete="tel-national"
              maxLength={64}
              style={{ flex: 1, minWidth: 200 }}
            />
          </Group>
          <Group>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
      <EmailChange email={user.email} pending={user.pendingEmail} onUserChanged={onUserChanged} />
      <TwoFactorSettings email={user.email} />
    </Stack>
  );
}

/**
 * A new sign-in email: the identity service keeps it pending and sends a verification link to it
 * (issue 9). The pending address is part of the current user, so it still shows after a reload and
 * goes once verified (or when a newer address replaces it).
 */
function EmailChange({ email, pending, onUserChanged }: { email: string; pending: string | null; onUserChanged(): void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();
  const [withdrawn, setWithdrawn] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  // just sent (before the refreshed user arrives), else what the server says is pending
  const shownPending = sentTo ?? (withdrawn ? null : pending);
  // Keeping the current address withdraws the pending one: the identity service clears it, and
  // the link sent to it no longer changes anything.
  const withdraw = async () => {
    setError(undefined);
    setWithdrawing(true);
    try {
      await updateUserAttribute({ userAttribute: { attributeKey: 'email', value: email } });
      setSentTo(undefined);
      setWithdrawn(true);
      onUserChanged();
    } catch (err) {
      setError((err as Error).message || messageForError(err));
    } finally {
      setWithdrawing(false);
    }
  };
  const checked = checkEmail(value);
  const precheck = () => {
    if (!checked.ok) return (setError(checked.error.message), false);
    if (checked.value === email.toLowerCase()) return (setError('This is already your email address.'), false);
    setError(undefined);
    return true;
  };
  // a new sign-in address needs the current password again: a stolen session alone cannot move the account
  const change = async () => {
    if (!checked.ok) return false;
    try {
      await updateUserAttribute({ userAttribute: { attributeKey: 'email', value: checked.value } });
      setSentTo(checked.value);
      setWithdrawn(false);
      setValue('');
      onUserChanged();
      return true;
    } catch (err) {
      setError((err as Error).message || messageForError(err));
      return false;
    }
  };
  return (
    <Stack gap="sm" pt="lg" style={{ borderTop: '1px solid var(--tw-border)' }} data-testid="email-change">
      <Text fw={600}>Email address</Text>
      <Text size="sm">
        You sign in with <b>{email}</b>.
      </Text>
      <PasswordConfirmForm
        submitLabel="Change email"
        submitVariant="default"
        precheck={precheck}
        onConfirmed={change}
        fields={<TextInput label="New email address" value={value} onChange={(e) => setValue(e.currentTarget.value)} error={error} type="email" autoComplete="email" maxLength={320} style={{ flex: 1, minWidth: 220 }} />}
      />
      {shownPending && (
        <Alert color="blue" icon={<IconMailForward size={18} />} role="status">
          <Stack gap="xs" align="flex-start">
            <span>{USER_SETTINGS_MESSAGES.emailChangeSent(shownPending)}</span>
            <Button size="compact-sm" variant="default" loading={withdrawing} onClick={() => void withdraw()}>
              Keep {email}
            </Button>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
