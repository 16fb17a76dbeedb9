import { useEffect, useState } from 'react';
import { Alert, Button, Code, Group, PasswordInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { recoveryCodeCountSchema, recoveryCodesSchema } from '../../contract/account.schema';
import { messageForError } from '../../domain/messages';
import { api } from '../../shared/api';
import { reauthenticate } from './reauthenticate';

/**
 * Recovery codes for a lost authenticator, under Two-factor authentication when it is on: how many
 * are left, and new ones after the current password (the old stop working). The new codes are
 * shown this once; the server keeps only their hashes. Each works once at the sign-in's code step.
 */
export function RecoveryCodes() {
  const [remaining, setRemaining] = useState<number | null>(null);
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api
      .get('/mfa/recovery-codes', { schema: recoveryCodeCountSchema })
      .then((r) => live && setRemaining(r.remaining))
      .catch(() => live && setRemaining(null));
    return () => {
      live = false;
    };
  }, [codes]);

  const make = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const problem = await reauthenticate(password);
      if (problem) return setError(problem);
      const made = await api.post('/mfa/recovery-codes', undefined, { schema: recoveryCodesSchema });
      setCodes(made.codes);
      setAsking(false);
      setPassword('');
    } catch (err) {
      setError(messageForError(err));
    } finally {
      setBusy(false);
    }
  };

  if (codes)
    return (
      <Alert color="yellow" title="Your recovery codes" data-testid="recovery-codes">
        <Stack gap="xs">
          <Text size="sm">Save these codes somewhere safe, away from your phone. If you lose your authenticator app, each one signs you in once in place of its code. They will not be shown again.</Text>
          <SimpleGrid cols={2} spacing={4} maw={360}>
            {codes.map((c) => (
              <Code key={c}>{c}</Code>
            ))}
          </SimpleGrid>
          <Group>
            <Button variant="default" onClick={() => setCodes(null)}>
              I have saved them
            </Button>
          </Group>
        </Stack>
      </Alert>
    );

  return (
    <Stack gap="xs">
      <Text size="sm" data-testid="recovery-codes-left">
        {remaining === null ? '' : remaining === 0 ? 'You have no recovery codes. Make some, in case you lose your authenticator app.' : `${remaining} unused recovery code${remaining === 1 ? '' : 's'} left.`}
      </Text>
      {asking ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void make();
          }}
        >
          <Stack gap="sm">
            <PasswordInput label="Current password" description="Confirm it is you before new recovery codes are made." autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={error} maxLength={256} />
            <Group gap="sm">
              <Button type="submit" loading={busy}>
                Make recovery codes
              </Button>
              <Button variant="default" onClick={() => (setAsking(false), setPassword(''), setError(undefined))} disabled={busy}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Group>
          <Button variant="default" onClick={() => setAsking(true)}>
            {remaining ? 'Make new recovery codes' : 'Make recovery codes'}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
