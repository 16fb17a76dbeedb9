import { createContext, useContext } from 'react';
import type { ClientConfig } from '../shared/session';

/** /config.json as loaded at start (also reachable signed out, for support links). */
export const ConfigContext = createContext<ClientConfig | null>(null);

export function useConfig(): ClientConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside ConfigContext');
  return config;
}
