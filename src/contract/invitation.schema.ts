import { z } from 'zod';
import { safeText } from './safe-text';

/** POST /organisations/{orgId}/invite: member 1, admin 2, meter reader 4 (with meterReading only). */
export const inviteRequestSchema = z.object({
  email: safeText.max(320),
  name: safeText.max(256),
  role: z.union([z.literal(1), z.literal(2), z.literal(4)]),
  mobile: safeText.max(64).nullable().optional(),
});
export type InviteRequest = z.infer<typeof inviteRequestSchema>;

/** POST /organisations/{orgId}/invite?resend=true */
export const resendInviteRequestSchema = z.object({ email: safeText.max(320) });

export const inviteQuerySchema = z.object({ resend: z.enum(['true', 'false']).optional(), region: safeText.max(64).optional() });

/**
 * Answer of invite and resend: Invited for a new user (who must accept), Active for an existing
 * account added straight away.
 */
export const inviteResponseSchema = z.object({
  email: z.string(),
  status: z.enum(['Invited', 'Active']),
  inviteId: z.string(),
  lastInviteAt: z.number(),
});
export type InviteResponse = z.infer<typeof inviteResponseSchema>;
