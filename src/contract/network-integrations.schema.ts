import { z } from 'zod';

/** A radio network's cloud callback as the organisation pastes it into the network's console (docs/device-protocol.md). */
export const networkCallbackSchema = z.object({
  /** The URL the callback posts to. */
  callbackUrl: z.string(),
  /** The header that carries the secret, and the secret. */
  secretHeader: z.string(),
  secret: z.string(),
  /** For a destination that takes a bare URL (Myriota): the URL with the secret in its path. */
  urlWithSecret: z.string().optional(),
  updatedAt: z.number(),
});
/** GET /organisations/{id}/network-integrations and what regenerating answers (managers only). */
export const networkIntegrationsSchema = z.object({ sigfox: networkCallbackSchema, myriota: networkCallbackSchema });
export type NetworkIntegrations = z.infer<typeof networkIntegrationsSchema>;
export const networkParamSchema = z.enum(['sigfox', 'myriota']);
