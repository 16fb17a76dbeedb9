import '../contract/csp-safe-zod'; // jitless Zod (also set by /zod-jitless.js before any chunk runs)
import '../shared/mantine.css'; // Mantine's sheets for the components the apps render (npm run gen:mantine-css)
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Button, Center, MantineProvider, Stack, Text, Title } from '@mantine/core';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { createActor, fromPromise } from 'xstate';
import { readerSyncMachine } from '../../machines/reader-sync.machine';
import { clientConfigSchema, configureIdentity, loadClientConfig } from '../shared/amplify';
import type { ClientConfig } from '../shared/session';
import { ReaderApp } from '../features/reader/reader-app';
import { ReaderDb, type ReaderOwner } from '../features/reader/reader-db';
import type { MeterReadingAnswer } from '../contract/route.schema';
import { uploadCapture } from '../features/reader/reader-api';
import { onGatewayAnswered } from '../shared/api';
import { retryWhenReachable, serverAnswers } from '../features/reader/reconnect';
import { theme } from '../app/theme';

const root = createRoot(document.getElementById('root')!);
const LOGIN = `/login?redirect=${encodeURIComponent('/reader/')}`;
const CONFIG_KEY = 'tidewatch.reader.config';

/** /config.json, kept on the device: a reload with the network off boots from the last one. */
async function readerConfig(): Promise<ClientConfig> {
  try {
    const config = await loadClientConfig();
    localStorage.setItem(CONFIG_KEY, JSON.stringify(config));
    return config;
  } catch (err) {
    const kept = localStorage.getItem(CONFIG_KEY);
    if (kept) return clientConfigSchema.parse(JSON.parse(kept));
    throw err;
  }
}

/** The signed-in user from the stored session; offline with an expired session, the device's last owner. */
async function whoAmI(db: ReaderDb): Promise<ReaderOwner | 'signed-out'> {
  try {
    const token = (await fetchAuthSession()).tokens?.idToken;
    const sub = token?.payload.sub;
    if (typeof sub === 'string') return { sub, email: String(token?.payload.email ?? '') };
  } catch {
    /* no network to refresh the session: fall through */
  }
  const last = await db.owner();
  return !navigator.onLine && last ? last : 'signed-out';
}

function useOnline() {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

function Message({ title, children, action }: { title: string; children: string; action?: { label: string; href: string } }) {
  return (
    <Center h="100dvh" p="md">
      <Stack align="center" maw={360} ta="center">
        <Title order={2} size="h3">
          {title}
        </Title>
        <Text>{children}</Text>
        {action && (
          <Button component="a" href={action.href}>
            {action.label}
          </Button>
        )}
      </Stack>
    </Center>
  );
}

/** The reader app's edge: runtime config, Amplify, device storage, the sync machine with its real upload, the service worker. */
async function boot() {
  if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/reader/sw.js', { scope: '/reader/' }).catch(() => undefined);
  const config = await readerConfig();
  configureIdentity(config);
  const db = await ReaderDb.open();
  const owner = await whoAmI(db);
  if (owner === 'signed-out') {
    if (navigator.onLine) return window.location.replace(LOGIN);
    return root.render(
      <MantineProvider theme={theme}>
        <Message title="Offline">Signing in needs the network. Connect, then open the reader app again.</Message>
      </MantineProvider>,
    );
  }
  await db.claim(owner);
  const answered = new Set<(taskId: string, answer: MeterReadingAnswer) => void>();
  const onAnswer = (listener: (taskId: string, answer: MeterReadingAnswer) => void) => {
    answered.add(listener);
    return () => void answered.delete(listener);
  };
  const sync = createActor(
    readerSyncMachine.provide({
      actors: {
        // a sent capture's answer updates the downloaded copy (the reading as recorded, the task's progress)
        upload: fromPromise(async ({ input }) => {
          const answer = await uploadCapture(input);
          await db.putAnswer(input.taskId, answer).catch(() => undefined);
          for (const listener of answered) listener(input.taskId, answer);
          return answer;
        }),
      },
      actions: { persist: (_, p) => void db.putCaptures(p.captures) },
    }),
    { input: { captures: await db.captures(), online: navigator.onLine } },
  ).start();
  window.addEventListener('online', () => sync.send({ type: 'ONLINE' }));
  window.addEventListener('offline', () => sync.send({ type: 'OFFLINE' }));
  // a connection back without an online event: probe while backing off, retry when the server
  // answers it, or answers any of the app's own requests (the task list, a download)
  retryWhenReachable(sync, { probe: () => serverAnswers(), page: document, answers: onGatewayAnswered });
  const me: ReaderOwner = owner;

  function Reader() {
    const online = useOnline();
    return (
      <ReaderApp
        db={db}
        owner={me}
        sync={sync}
        mapStyle={config.map.styles.roadmap}
        online={online}
        onAnswer={onAnswer}
        newKey={() => crypto.randomUUID()}
        onSignOut={() => void signOut().finally(() => window.location.assign('/login'))}
      />
    );
  }
  root.render(
    <StrictMode>
      <MantineProvider theme={theme}>
        <Reader />
      </MantineProvider>
    </StrictMode>,
  );
}

boot().catch((err: unknown) => {
  root.render(
    <MantineProvider theme={theme}>
      <Message title="The reader app could not start" action={{ label: 'Try again', href: '/reader/' }}>
        {(err as Error).message}
      </Message>
    </MantineProvider>,
  );
});
