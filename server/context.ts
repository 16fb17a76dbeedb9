import type { Config } from './config';
import type { Db } from './db/db';
import type { SigningKey } from './identity/keys';
import type { TokenSettings } from './identity/tokens';
import type { Publisher } from './broker/publisher';
import type { Logger } from './log';

/** Everything a request handler or background job needs; built once in startServer. */
export interface AppContext {
  config: Config;
  db: Db;
  key: SigningKey;
  tokens: TokenSettings;
  publisher: Publisher;
  log: Logger;
  /** Ends a user's live connections to an organisation at once (removed, or now a meter reader); the broker's periodic re-check is the fallback. */
  membershipEnded?: (userId: string, orgId: string) => void;
  /** Wall clock; the simulator and tests may run it faster. */
  now: () => number;
  /** Work begun after an answer (a forecast judged after a save): stopping the server waits for it before closing the database. */
  afterAnswer?: Set<Promise<unknown>>;
}
