import { useEffect, useState } from 'react';
import { Alert, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { recoveryCodeCountSchema, recoveryCodesSchema } from '../contract/account.schema';
import { api } from './api';
import { PasswordConfirmForm } from './password-confirm-form';

/**
 * Recovery codes for a lost authenticator, under Two-factor authentication when it is on and in the
 * sign-in right after an authenticator is set up there: how many are left, and new ones after the
 * current password (the old stop working). The new codes are
 * shown this once; the server keeps only their hashes. Each works once at the sign-in's code step.
 */
export function RecoveryCodes() {
  const [remaining, setRemaining] = useState<number | null>(null);
  const [asking, setAsking] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

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
    const made = await api.post('/mfa/recovery-codes', undefined, { schema: recoveryCodesSchema });
    setCodes(made.codes);
    setAsking(false);
    return true;
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
        <PasswordConfirmForm submitLabel="Make recovery codes" description="Confirm it is you before new recovery codes are made." onConfirmed={make} onCancel={() => setAsking(false)} />
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
