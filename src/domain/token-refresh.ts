/**
 * When credentials are refreshed (monitoring-client 9: "Credentials refresh when within 60 s of
 * expiry"). Amplify on its own refreshes only 5 s before expiry, so a data-worker load or an MQTT
 * connection started with such a token is refused part-way; the gateway client, the worker and the
 * live connection all take their token through this rule instead.
 */
export const CREDENTIALS_REFRESH_MARGIN_MS = 60_000;

/** The claims the rule reads (seconds since the epoch, as in a JWT). */
export interface TokenTimes {
  exp: number;
  iat?: number;
}

/**
 * True when the token expires within the margin of `now`. `clockDrift` is the server clock minus
 * this device's (from when the token was issued), so a device clock that is off does not matter.
 * A token living no longer than twice the margin is refreshed at half its life, so that a short
 * lifetime (a test server's) does not make every call refresh.
 */
export function credentialsRefreshDue(token: TokenTimes, now: number, clockDrift = 0, margin = CREDENTIALS_REFRESH_MARGIN_MS): boolean {
  const lifetime = token.iat === undefined ? Infinity : (token.exp - token.iat) * 1000;
  return token.exp * 1000 - (now + clockDrift) <= Math.min(margin, lifetime / 2);
}
