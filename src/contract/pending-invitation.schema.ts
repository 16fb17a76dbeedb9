import { z } from 'zod';

/** GET /invitations: the signed-in user's invitations waiting for an answer (issue 9). */
export const pendingInvitationSchema = z.object({
  inviteId: z.string().uuid(),
  organisation: z.object({ id: z.string().uuid(), name: z.string(), slug: z.string() }),
  role: z.number().int(),
  invitedBy: z.string(),
  lastInviteAt: z.number(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;
export const pendingInvitationListSchema = z.object({ invitations: z.array(pendingInvitationSchema) });

/** POST /invitations/{inviteId}/accept | decline. */
export const invitationAnswerParamsSchema = z.object({ inviteId: z.string().uuid(), answer: z.enum(['accept', 'decline']) });
export const invitationAnswerResponseSchema = z.object({
  status: z.enum(['Accepted', 'Declined']),
  organisation: z.object({ id: z.string().uuid(), name: z.string(), slug: z.string() }),
});
export type InvitationAnswerResponse = z.infer<typeof invitationAnswerResponseSchema>;
