import { randomUUID } from 'node:crypto';
import { one, type Queryable } from '../db/db';
import type { TokenUser } from './tokens';

export type UserStatus = 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'UNCONFIRMED';

export interface UserRow {
  id: string;
  email: string;
  /** A new address waiting for its code; `email` stays the sign-in address until then. */
  pending_email: string | null;
  name: string;
  mobile: string | null;
  password_hash: string;
  status: UserStatus;
  email_verified: boolean;
  is_site_admin: boolean;
  profile_created: boolean;
  display_settings: { timeDisplay: 'Friendly' | 'AmericanLocal' };
  failed_logins: number;
  /** Sealed TOTP secrets (totp.ts): the one being set up, and the verified one. */
  totp_pending: string | null;
  totp_secret: string | null;
  /** Software token MFA is on: sign-in asks for a code. */
  totp_enabled: boolean;
  totp_last_step: number;
  locked_until: number;
  created_at: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Cognito usernames here are the email (as typed, any case) or the user's sub. */
export async function findUserByUsername(q: Queryable, username: string, forUpdate = false): Promise<UserRow | undefined> {
  const key = username.trim();
  const lock = forUpdate ? ' FOR UPDATE' : '';
  if (UUID.test(key)) return one<UserRow>(q, `SELECT * FROM users WHERE id = $1${lock}`, [key.toLowerCase()]);
  return one<UserRow>(q, `SELECT * FROM users WHERE email = $1${lock}`, [key.toLowerCase()]);
}

export const findUserById = (q: Queryable, id: string, forUpdate = false) =>
  one<UserRow>(q, `SELECT * FROM users WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);

export const tokenUser = (u: UserRow): TokenUser => ({
  id: u.id,
  email: u.email,
  name: u.name,
  email_verified: u.email_verified,
  is_site_admin: u.is_site_admin,
});

/** GetUser's attribute list, as Cognito names them. */
export function userAttributes(u: UserRow) {
  const attrs = [
    { Name: 'sub', Value: u.id },
    { Name: 'email', Value: u.email },
    { Name: 'email_verified', Value: String(u.email_verified) },
  ];
  if (u.name) attrs.push({ Name: 'name', Value: u.name });
  return attrs;
}

/** "o***@d***": how Cognito shows where a code went without repeating the address. */
export function maskEmail(email: string) {
  const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
}

export const emailDelivery = (email: string) => ({ AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(email) });

export interface NewUser {
  email: string;
  name: string;
  passwordHash: string;
  status: UserStatus;
  emailVerified: boolean;
  profileCreated: boolean;
  mobile?: string | null;
}

/** Inserts a user; the email must already be normalised (lower-cased) and checked unique. */
export async function insertUser(q: Queryable, u: NewUser, now: number): Promise<string> {
  const id = randomUUID();
  await q.query(
    `INSERT INTO users (id, email, name, mobile, password_hash, status, email_verified, profile_created, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, u.email, u.name, u.mobile ?? null, u.passwordHash, u.status, u.emailVerified, u.profileCreated, now],
  );
  return id;
}

/** A unique-constraint violation on either driver (a concurrent request took the email or slug). */
export const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';
