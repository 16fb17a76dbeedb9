import { Amplify } from 'aws-amplify';
import { fetchAuthSession } from 'aws-amplify/auth';
import { z } from 'zod';
import { configureGateway } from './api';
import { configureLive } from './live';
import type { ClientConfig } from './session';

/** /config.json: one build serves any deployment (DESIGN.md "Addresses"). */
export const clientConfigSchema = z.object({
  auth: z.object({ userPoolId: z.string().min(1), userPoolClientId: z.string().min(1), userPoolEndpoint: z.string().min(1) }),
  api: z.object({ endpoint: z.string().min(1) }),
  mqtt: z.object({ url: z.string() }),
  map: z.object({ styles: z.object({ roadmap: z.string(), satellite: z.string(), hybrid: z.string(), terrain: z.string() }) }),
  demo: z.boolean(),
  links: z.object({ support: z.string().optional(), resellerPortal: z.string().optional() }).optional(),
});

/** Fetches and checks the runtime configuration (fails naming every field that is wrong). */
export async function loadClientConfig(url = '/config.json'): Promise<ClientConfig> {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const parsed = clientConfigSchema.safeParse(await res.json());
  if (!parsed.success) throw new Error(`${url} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Sign-in goes straight to the user pool with the password (no SRP): the flow the identity endpoint and Cognito both speak. */
export const AUTH_FLOW = 'USER_PASSWORD_AUTH' as const;

/** The current ID token; Amplify refreshes the tokens when they are close to expiry. */
export async function currentIdToken(): Promise<string | undefined> {
  const session = await fetchAuthSession();
  return session.tokens?.idToken?.toString();
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
    getIdToken: async () => {
      const token = await currentIdToken().catch(() => undefined);
      if (!token) onNoSession();
      return token;
    },
  });
  // live mode: the broker from /config.json, the (refreshed) ID token as the MQTT password
  configureLive({ url: config.mqtt.url, getIdToken: () => currentIdToken().catch(() => undefined) });
}
