import { z } from 'zod';

/** POST /organisations/{orgId}/invite: member 1, admin 2, meter reader 4 (with meterReading only). */
export const inviteRequestSchema = z.object({
  email: z.string(),
  name: z.string(),
  role: z.union([z.literal(1), z.literal(2), z.literal(4)]),
  mobile: z.string().nullable().optional(),
});
export type InviteRequest = z.infer<typeof inviteRequestSchema>;

/** POST /organisations/{orgId}/invite?resend=true */
export const resendInviteRequestSchema = z.object({ email: z.string() });

export const inviteQuerySchema = z.object({ resend: z.enum(['true', 'false']).optional(), region: z.string().optional() });

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
