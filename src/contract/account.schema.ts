import { z } from 'zod';
import { timeDisplaySchema } from './user.schema';
import { safeText } from './safe-text';

/**
 * Sign-up, profile and user look-up calls (organisation-and-routes 7.1; monitoring-client 7).
 * Requests of /claim-sensor and /signup are in user.schema.ts; the answers are here.
 */

/** POST /claim-sensor answer: the normalised serial of a sensor that can be claimed. */
export const claimSensorResponseSchema = z.object({ serial: z.string() });

/** POST /signup answer: the organisation just created, to land in. */
export const signupResponseSchema = z.object({
  organisation: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
});
export type SignupResponse = z.infer<typeof signupResponseSchema>;

/** POST /create-self body (every field optional: the account already holds email and name). */
export const createSelfRequestSchema = z
  .object({
    email: safeText.max(320).optional(),
    name: safeText.max(256).optional(),
    organisationName: safeText.max(256).optional(),
    serial: safeText.max(64).optional(),
  })
  .default({});

/** GET /users/current-v2 query. */
export const currentUserQuerySchema = z.object({ email: safeText.min(1).max(320), region: safeText.max(64).optional() });

/** PATCH /users/{memberId}: profile fields, or display settings. */
export const updateUserRequestSchema = z.union([
  z.object({ displaySettings: z.object({ timeDisplay: timeDisplaySchema }) }).strict(),
  z
    .object({ name: safeText.max(256).optional(), mobile: safeText.max(64).nullable().optional() })
    .strict()
    .refine((b) => b.name !== undefined || b.mobile !== undefined, { message: 'Nothing to update' }),
]);
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

/**
 * GET /users?email= (the invite form's look-up; managers only, rate-limited per caller): only
 * whether an account has the address and its name, never its id or mobile.
 */
export const userLookupQuerySchema = z.object({ email: safeText.min(1).max(320) });
export const userLookupResponseSchema = z.object({ found: z.boolean(), name: z.string().optional() });

/** GET /mfa/recovery-codes: how many unused recovery codes the signed-in user has. */
export const recoveryCodeCountSchema = z.object({ remaining: z.number().int().min(0) });
/** POST /mfa/recovery-codes: new codes (the old stop working), shown this once. */
export const recoveryCodesSchema = z.object({ codes: z.array(z.string()) });

/** POST /reauthenticate body: the signed-in user's current password, before turning MFA off or changing the email. */
export const reauthenticateRequestSchema = z.object({ password: z.string().min(1).max(256) }).strict();
