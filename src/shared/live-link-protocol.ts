// The messages between the page and its MQTT worker (live-link.ts, workers/live-link.worker.ts).

/** The page to the worker. */
export type LinkRequest =
  | { type: 'open'; url: string; token: string }
  | { type: 'subscribe'; filter: string; id: number }
  | { type: 'unsubscribe'; filter: string }
  | { type: 'reconnect'; token: string };

/** The worker to the page. */
export type LinkReply =
  | { type: 'connect' }
  | { type: 'close' }
  | { type: 'message'; topic: string; text: string }
  | { type: 'subscribed'; id: number; refused: boolean };
