import { Amplify } from 'aws-amplify';
import { fetchAuthSession } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { z } from 'zod';
import { credentialsRefreshDue } from '../domain/token-refresh';
import { configureGateway } from './api';
import { configureLive } from './live-config';
import type { ClientConfig } from './session';

/** /config.json: one build serves any deployment (DESIGN.md "Addresses"). */
export const clientConfigSchema = z.object({
  auth: z.object({ userPoolId: z.string().min(1), userPoolClientId: z.string().min(1), userPoolEndpoint: z.string().min(1), preventUserExistenceErrors: z.boolean().optional() }),
  api: z.object({ endpoint: z.string().min(1) }),
  mqtt: z.object({ url: z.string() }),
  map: z.object({ styles: z.object({ roadmap: z.string(), satellite: z.string().optional(), hybrid: z.string().optional(), terrain: z.string().optional() }) }),
  demo: z.boolean(),
  stage: z.enum(['development', 'production']).optional(),
  links: z.object({ support: z.string().optional(), resellerPortal: z.string().optional() }).optional(),
  /** Share of client errors reported to the server (monitoring-client 9); absent means the production 0.1. */
  clientErrors: z.object({ sampleRate: z.number().min(0).max(1) }).optional(),
});

/** Fetches and checks the runtime configuration (fails naming every field that is wrong). */
export async function loadClientConfig(url = '/config.json'): Promise<ClientConfig> {
  // the browser's default cache mode, so index.html's preload of it is used (the server sends it no-cache)
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const parsed = clientConfigSchema.safeParse(await res.json());
  if (!parsed.success) throw new Error(`${url} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Sign-in goes straight to the user pool with the password (no SRP): the flow the identity endpoint and Cognito both speak. */
export const AUTH_FLOW = 'USER_PASSWORD_AUTH' as const;

/** Server clock minus this device's, measured when a refreshed token arrives (its iat). */
let clockDrift = 0;
let refreshing: Promise<string | undefined> | undefined;

/**
 * The last ID token Amplify gave, while it is not due for refresh: currentIdToken answers from it
 * without asking Amplify again (fetchAuthSession reads and decodes the stored session in several
 * asynchronous steps), and heldIdToken gives it with no wait at all (a chart load posts in the
 * click's own task). Any change to the session drops it: Amplify's Hub
 * events (sign-in, sign-out, refresh and its failure, in this tab or, through storage, another)
 * and any change to the stored session made by another tab. `generation` counts those changes,
 * so a token read across one is not kept.
 */
let held: { token: string; exp: number; iat?: number } | undefined;
let generation = 0;
const dropHeld = () => {
  held = undefined;
  generation++;
};
Hub.listen('auth', dropHeld);
if (typeof window !== 'undefined')
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key.startsWith('CognitoIdentityServiceProvider.')) dropHeld();
  });

type IdToken = NonNullable<NonNullable<Awaited<ReturnType<typeof fetchAuthSession>>['tokens']>['idToken']>;

/** Keeps `token` as the held one if the session has not changed since `since` (a generation). */
function hold(token: IdToken | undefined, since: number) {
  const { exp, iat } = token?.payload ?? {};
  if (token && typeof exp === 'number' && since === generation) held = { token: token.toString(), exp, iat: typeof iat === 'number' ? iat : undefined };
}

async function forceRefresh(): Promise<string | undefined> {
  // not held here: the refresh's own Hub event drops what is held, and the next call reads it again
  const token = (await fetchAuthSession({ forceRefresh: true })).tokens?.idToken;
  if (typeof token?.payload.iat === 'number') clockDrift = token.payload.iat * 1000 - Date.now();
  return token?.toString();
}

/** The held ID token if it is not due for refresh (what currentIdToken would answer at once), else undefined. */
export function heldIdToken(): string | undefined {
  return held && !credentialsRefreshDue(held, Date.now(), clockDrift) ? held.token : undefined;
}

/**
 * The current ID token, refreshed when within 60 s of expiry (monitoring-client 9), not at
 * Amplify's own 5 s: the gateway client, the data worker's loads and the MQTT connection all take
 * their token here, and each must outlive the work it starts. Concurrent callers share one refresh.
 * A token already held and not due answers at once (the same rule, the same clock drift).
 */
export async function currentIdToken(): Promise<string | undefined> {
  const now = heldIdToken();
  if (now) return now;
  const since = generation;
  const token = (await fetchAuthSession()).tokens?.idToken;
  const { exp, iat } = token?.payload ?? {};
  if (!token || typeof exp !== 'number' || !credentialsRefreshDue({ exp, iat: typeof iat === 'number' ? iat : undefined }, Date.now(), clockDrift)) {
    hold(token, since);
    return token?.toString();
  }
  refreshing ??= forceRefresh().finally(() => (refreshing = undefined));
  try {
    return await refreshing;
  } catch (err) {
    // the refresh failed (network): a token that has not expired yet still serves
    if (exp * 1000 > Date.now() + clockDrift) return token.toString();
    throw err;
  }
}

/**
 * Points aws-amplify (unchanged) at the configured user pool and the gateway client at the API.
 * `onNoSession` runs when a signed call finds no usable token (a failed token check).
 */
export function configureIdentity(config: ClientConfig, onNoSession: () => void = () => undefined) {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.auth.userPoolId,
        userPoolClientId: config.auth.userPoolClientId,
        userPoolEndpoint: config.auth.userPoolEndpoint,
      },
    },
  });
  configureGateway({
    endpoint: config.api.endpoint,
    // the user pool's region (the part of its id before '_', as aws-amplify reads it): the member and user calls name it
    region: config.auth.userPoolId.split('_')[0],
    getIdToken: async () => {
      const token = await currentIdToken().catch(() => undefined);
      if (!token) onNoSession();
      return token;
    },
    heldIdToken,
  });
  // live mode: the broker from /config.json, the (refreshed) ID token as the MQTT password
  configureLive({ url: config.mqtt.url, getIdToken: () => currentIdToken().catch(() => undefined) });
}
