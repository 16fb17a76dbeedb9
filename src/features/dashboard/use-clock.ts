// The server-corrected clock lives in src/shared (the setup area's estimate uses the same offset).
export { serverNow, useNow } from '../../shared/server-clock';

/** Refresh timers (monitoring-client 4). */
export const REFRESH = { highlight: 60_000, lastSeen: 30_000, recentAlerts: 3_000 } as const;
