// The live connection's settings, apart from the connection itself (live.ts): the app edge sets
// them and sign-out closes the connection without loading mqtt.js's glue or the live message
// schemas, which the sign-in page does not need.

/** Where the broker is and how to get the caller's current ID token; set once at the app edge. */
export interface LiveConfig {
  /** config.mqtt.url from /config.json, e.g. wss://host/mqtt (or how to get it) */
  url: string | (() => Promise<string>);
  /** The current (refreshed when near expiry) ID token; it is the MQTT password. */
  getIdToken: () => Promise<string | undefined>;
  /** Told when the connection comes up (true) or goes down (false). */
  onStatus?: (connected: boolean) => void;
}

let config: LiveConfig | undefined;
let closeOpen: (() => void) | undefined;

/** The settings given to configureLive, if any. */
export const liveConfig = (): LiveConfig | undefined => config;

/** live.ts registers how to close the tab's connection once it has opened one. */
export function onCloseLive(close: (() => void) | undefined) {
  closeOpen = close;
}

/** Sets the broker and token source (at the app edge, next to configureGateway); closes an older connection. */
export function configureLive(cfg: LiveConfig) {
  config = cfg;
  closeLive();
}

/** Closes the live connection (sign-out); the next subscription opens a new one. */
export function closeLive() {
  closeOpen?.();
}
