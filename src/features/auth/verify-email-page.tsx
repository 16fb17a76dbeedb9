import { Center, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconMailExclamation } from '@tabler/icons-react';
import { useActorRef, useSelector } from '@xstate/react';
import { confirmUserAttribute } from 'aws-amplify/auth';
import { fromPromise } from 'xstate';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { verifyEmailMachine } from '../../../machines/verify-email.machine';
import { VERIFY_EMAIL_MESSAGES } from '../../domain/messages';

/** /verify-email?code= (organisation-and-routes 2.3): waiting, success (then / after 6 s), failure or a replaced link (for 8 s, then /). */
export function VerifyEmailPage({ onVerified }: { onVerified: () => void }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const actor = useActorRef(
    verifyEmailMachine.provide({
      actors: { confirm: fromPromise(({ input }: { input: { code: string } }) => confirmUserAttribute({ userAttributeKey: 'email', confirmationCode: input.code })) },
      actions: { leave: () => navigate('/', { replace: true }), verified: onVerified },
    }),
    { input: { code: params.get('code') } },
  );
  const state = useSelector(actor, (s) => s.value);
  const failed = state === 'failure' || state === 'superseded';
  return (
    <Center mih="calc(100dvh - 60px)" p="md">
      <Paper withBorder shadow="sm" p="xl" maw={480} w="100%">
        <Stack align="center" ta="center" gap="md">
          {state === 'success' ? (
            <ThemeIcon size={64} radius="xl" variant="light" color="teal">
              <IconCircleCheck size={36} />
            </ThemeIcon>
          ) : failed ? (
            <ThemeIcon size={64} radius="xl" variant="light" color="red">
              <IconMailExclamation size={36} />
            </ThemeIcon>
          ) : (
            <Loader />
          )}
          <Title order={1} size="h3">Email verification</Title>
          <Text c={failed ? 'red.8' : 'dimmed'} role={failed ? 'alert' : 'status'}>
            {state === 'success' ? VERIFY_EMAIL_MESSAGES.success : state === 'failure' ? VERIFY_EMAIL_MESSAGES.failure : state === 'superseded' ? VERIFY_EMAIL_MESSAGES.superseded : VERIFY_EMAIL_MESSAGES.waiting}
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
