import { markServiceUsed } from './services';
import { scratchPostgres, type ScratchDatabase } from './scratch-postgres';

/** A throw-away, empty PostgreSQL database (nothing opened on it): a test opens it, or several pools race on it. */
export async function emptyPostgres(): Promise<ScratchDatabase> {
  markServiceUsed('postgres');
  return scratchPostgres(process.env.TEST_DATABASE_URL!, 'tw_cluster');
}
