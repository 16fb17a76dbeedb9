import { z } from 'zod';
import { safeText } from './safe-text';

export const timeDisplaySchema = z.enum(['Friendly', 'AmericanLocal']);

/** GET /users/current-v2 */
export const currentUserSchema = z.object({
  cognitoIdentityId: z.string(),
  email: z.string(),
  name: z.string(),
  mobile: z.string().nullable(),
  emailVerified: z.boolean(),
  /** A new sign-in email waiting for its verification link (null when none): the account section shows it after a reload. */
  pendingEmail: z.string().nullable(),
  isSiteAdmin: z.boolean(),
  displaySettings: z.object({ timeDisplay: timeDisplaySchema }),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** Spec 5: serial trimmed, upper-cased, 6 or 8 hex. */
export const serialSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^([0-9A-F]{6}|[0-9A-F]{8})$/);
/** Spec 5: claim code trimmed, lower-cased, 8-4-4-4-12 hex. */
export const claimCodeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

export const claimSensorRequestSchema = z.object({ serial: safeText.max(64), claimCode: safeText.max(64) });
export const signupRequestSchema = z.object({
  email: safeText.max(320),
  password: z.string().max(256),
  serial: safeText.max(64),
  claimCode: safeText.max(64),
  organisationName: safeText.max(256),
  name: safeText.max(256),
});
export type SignupRequest = z.infer<typeof signupRequestSchema>;
