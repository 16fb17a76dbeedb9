import { z } from 'zod';

/** Organisation roles (numeric, as the gateway sends them). */
export const ROLES = { NO_ROLE: 0, MEMBER: 1, ADMIN: 2, OWNER: 3, METER_READER: 4 } as const;
export const roleSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
export type Role = z.infer<typeof roleSchema>;

export const notificationRuleSchema = z.object({ email: z.boolean(), sms: z.boolean() });

/** The encodings an organisation's council files may use (see src/domain/council-encoding.ts). */
export const COUNCIL_FILE_ENCODINGS = ['UTF-8', 'Windows-1252'] as const;
export type CouncilFileEncoding = (typeof COUNCIL_FILE_ENCODINGS)[number];

export const organisationSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  role: roleSchema,
  measurementUnit: z.enum(['Metres', 'Inches']),
  locale: z.object({ timezone: z.string(), country: z.string() }),
  features: z.object({ isFuel: z.boolean(), liveMode: z.boolean(), meterReading: z.boolean() }),
  restApi: z.object({ key: z.string(), token: z.string() }).nullable().optional(),
  /** At least one of the organisation's sensors is on Sigfox or Myriota, whose cloud callbacks it must set up. */
  radioNetworkSensors: z.boolean().optional(),
  defaultNotificationRule: notificationRuleSchema,
  notificationSettings: z.object({ alertAssert: notificationRuleSchema, alertClear: notificationRuleSchema }),
  /** The council results file's encoding (meter-reading organisations); absent means UTF-8. */
  councilFileEncoding: z.enum(COUNCIL_FILE_ENCODINGS).optional(),
  /** Slugs the organisation had before renames, newest first, so old links still find it. */
  formerSlugs: z.array(z.string()).optional(),
  /** The owner requires two-factor authentication of the organisation's managers (admins and owners). */
  managerMfaRequired: z.boolean().optional(),
  /** This caller is a manager here without two-factor authentication: the organisation's data is refused until it is on. */
  mfaSetupNeeded: z.boolean().optional(),
});

/** PUT /organisations/{orgId}/security (owner only). */
export const organisationSecurityUpdateSchema = z.object({ managerMfaRequired: z.boolean() }).strict();
export type Organisation = z.infer<typeof organisationSchema>;

export const organisationListSchema = z.object({ organisations: z.array(organisationSchema) });
