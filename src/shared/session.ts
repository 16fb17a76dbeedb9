import { createContext, useContext } from 'react';
import type { Organisation } from '../contract/organisation.schema';
import type { CurrentUser } from '../contract/user.schema';

/** The signed-in frame every organisation page renders inside (provided by src/app). */
export interface Session {
  user: CurrentUser;
  organisations: Organisation[];
  /** The organisation of the current /org/:orgSlug path. */
  org: Organisation;
  /** '/org/{slug}' */
  orgPath: string;
  /** Runtime configuration from /config.json. */
  config: ClientConfig;
  signOut(): void;
  /**
   * Re-reads the sensors, organisations etc. after a change. quiet: a background re-read (the
   * record may be stale) whose failure keeps what is shown instead of the organisations' failure screen.
   */
  refreshOrganisations(options?: { quiet?: boolean }): Promise<void>;
}

/** The map types of monitoring-client 2.8 and their MapLibre style URLs. */
export type MapStyles = { roadmap: string } & Partial<Record<'hybrid' | 'satellite' | 'terrain', string>>;

export interface ClientConfig {
  /** preventUserExistenceErrors: the identity endpoint answers a reset for an unknown address as for a known one (absent: true, Cognito's default). */
  auth: { userPoolId: string; userPoolClientId: string; userPoolEndpoint: string; preventUserExistenceErrors?: boolean };
  api: { endpoint: string };
  mqtt: { url: string };
  /** Each map type's style: Roadmap always, Hybrid, Satellite and Terrain only where the deployment has them. */
  map: { styles: MapStyles };
  demo: boolean;
  /** The deployment stage (server STAGE); the Radar Config section is hidden in production (sensor-setup 2). Absent: production. */
  stage?: 'development' | 'production';
  /** Optional deployment links; the frame falls back to the product's own. */
  links?: { support?: string; resellerPortal?: string };
  /** Share of client errors reported (monitoring-client 9); absent means 0.1. */
  clientErrors?: { sampleRate: number };
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside the organisation frame');
  return s;
}
