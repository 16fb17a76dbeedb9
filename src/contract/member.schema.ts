import { z } from 'zod';
import { COUNCIL_FILE_ENCODINGS, notificationRuleSchema, roleSchema } from './organisation.schema';
import { safeText, uuidSchema as uuid } from './safe-text';

/** PUT /organisations/{orgId}: the organisation object; only these fields are stored. */
export const organisationUpdateSchema = z.object({
  name: safeText.max(1000),
  measurementUnit: z.enum(['Metres', 'Inches']),
  defaultNotificationRule: notificationRuleSchema.optional(),
  notificationSettings: z.object({ alertAssert: notificationRuleSchema, alertClear: notificationRuleSchema }).optional(),
  /** Absent: unchanged. */
  councilFileEncoding: z.enum(COUNCIL_FILE_ENCODINGS).optional(),
});
export type OrganisationUpdate = z.infer<typeof organisationUpdateSchema>;

/** A row of GET /organisations/{orgId}/members: an active member or a pending invitation. */
export const memberSchema = z.object({
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  status: z.enum(['Active', 'Invited']),
  cognitoIdentityId: z.string().nullable(),
  lastInviteAt: z.number().nullable(),
  /** When a pending invitation stops working (lastInviteAt + 90 days); null for active members. */
  inviteExpiresAt: z.number().nullable(),
  inviteId: z.string().nullable(),
  mobile: z.string().nullable(),
  notificationRule: notificationRuleSchema.nullable(),
  /** Whether an active member has two-factor authentication on (the owner may reset it); absent for invitations. */
  mfaEnabled: z.boolean().optional(),
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.object({ members: z.array(memberSchema) });

export const memberPathSchema = z.object({ orgId: z.string(), memberId: uuid });
/** The user pool's region the member and user calls name (organisation-and-routes 8), e.g. ap-southeast-2. */
export const regionSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'region must be a region name such as ap-southeast-2');
/** ?region= of the member and user calls. */
export const memberQuerySchema = z.object({ region: regionSchema.optional() });

/** PATCH .../members/{memberId}: a new role (member, admin, meter reader) or a notification rule (null: the default applies). */
export const memberPatchSchema = z.union([
  z.object({ cognitoIdentityId: uuid, role: z.union([z.literal(1), z.literal(2), z.literal(4)]) }).strict(),
  z.object({ cognitoIdentityId: uuid, notificationRule: notificationRuleSchema.nullable() }).strict(),
]);
export type MemberPatch = z.infer<typeof memberPatchSchema>;

/** DELETE .../members/{memberId}: the member's identity id repeated in the body (DESIGN.md). */
export const memberDeleteSchema = z.object({ cognitoIdentityId: uuid });
/**
 * The answer of DELETE .../members/{memberId}: whether the caller left (their own id), and how many
 * of the member's unfinished route tasks in the organisation (neither complete nor exported) were
 * unassigned in the same transaction.
 */
export const memberDeleteResponseSchema = z.object({ cognitoIdentityId: uuid, left: z.boolean(), unassignedRouteTasks: z.number().int().nonnegative() });

/**
 * GET .../members/{memberId}/unfinished-route-tasks: how many route tasks of the organisation are
 * assigned to the member and unfinished (Waiting or Active: neither complete nor exported), the
 * tasks a removal or a leave unassigns; the Remove and Leave confirmations say the number.
 */
export const unfinishedRouteTasksSchema = z.object({ cognitoIdentityId: uuid, unfinishedRouteTasks: z.number().int().nonnegative() });
export type UnfinishedRouteTasks = z.infer<typeof unfinishedRouteTasksSchema>;

export const cancelInvitePathSchema = z.object({ orgId: z.string(), email: safeText.max(320) });

/** POST .../members/{memberId}/reset-mfa: the member's authenticator and recovery codes are gone. */
export const memberMfaResetResponseSchema = z.object({ cognitoIdentityId: uuid, mfaEnabled: z.literal(false) });
