import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { checkEmail, checkName } from '../../src/domain/sign-up-rules';
import { ConfigError, loadConfig } from '../config';
import { openDb, type Db } from '../db/db';
import { migrate } from '../db/migrate';
import { findUserByUsername, insertUser } from '../identity/identity-users';
import { temporaryPassword } from '../identity/invite';
import { hashPassword } from '../identity/passwords';
import { uniqueSlug } from '../identity/sign-up';

export interface CreateUserInput {
  email: string;
  name?: string;
  siteAdmin?: boolean;
  /** Creates this organisation with the new user as its owner. */
  org?: string;
}

export interface CreatedUser {
  userId: string;
  email: string;
  temporaryPassword: string;
  organisation?: { id: string; slug: string; name: string };
}

/**
 * The first owner and site admin of a clean deployment: an account waiting for its first
 * password (FORCE_CHANGE_PASSWORD), so the temporary password printed here works once, for the
 * NEW_PASSWORD_REQUIRED challenge at first sign-in.
 */
export async function createUser(db: Db, input: CreateUserInput, now = Date.now()): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  if (!email.ok) throw new Error(`--email: ${email.error.message}`);
  const name = checkName(input.name ?? email.value.split('@')[0]!);
  if (!name.ok) throw new Error(`--name: ${name.error.message}`);
  const orgName = input.org?.trim();
  if (input.org !== undefined && !orgName) throw new Error('--org: the organisation needs a name');
  const temp = temporaryPassword();
  const hash = await hashPassword(temp);
  return db.tx(async (q) => {
    if (await findUserByUsername(q, email.value)) throw new Error(`An account with the email ${email.value} already exists.`);
    const userId = await insertUser(q, { email: email.value, name: name.value, passwordHash: hash, status: 'FORCE_CHANGE_PASSWORD', emailVerified: false, profileCreated: true }, now);
    if (input.siteAdmin) await q.query('UPDATE users SET is_site_admin = true WHERE id = $1', [userId]);
    let organisation: CreatedUser['organisation'];
    if (orgName) {
      organisation = { id: randomUUID(), slug: await uniqueSlug(q, orgName), name: orgName };
      await q.query('INSERT INTO organisations (id, slug, name, created_at) VALUES ($1, $2, $3, $4)', [organisation.id, organisation.slug, organisation.name, now]);
      await q.query('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, 3, $3)', [organisation.id, userId, now]);
    }
    return { userId, email: email.value, temporaryPassword: temp, organisation };
  });
}

const USAGE = 'usage: npm run create-user -- --email EMAIL [--name NAME] [--site-admin] [--org "Organisation name"]';

async function main() {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, name: { type: 'string' }, 'site-admin': { type: 'boolean' }, org: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || !values.email) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(db);
    const made = await createUser(db, { email: values.email, name: values.name, siteAdmin: values['site-admin'], org: values.org });
    console.log(`Created ${made.email}${values['site-admin'] ? ' (site admin)' : ''}${made.organisation ? `, owner of ${made.organisation.name}` : ''}.`);
    console.log(`Temporary password: ${made.temporaryPassword}`);
    console.log('Sign in with it once: the app then asks for a new password.');
  } finally {
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err instanceof ConfigError ? err.message : `create-user: ${(err as Error).message}`);
    process.exit(1);
  });
}
