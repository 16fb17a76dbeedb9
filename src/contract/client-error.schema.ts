import { z } from 'zod';
import { safeText } from './safe-text';

/**
 * Client error reports (monitoring-client.md 9): POST /client-errors (signed in or not; limited per
 * address and in size) and GET /admin/client-errors (site admins), newest first with a cursor.
 */
export const CLIENT_ERROR_KINDS = ['error', 'unhandledrejection', 'render'] as const;
export const CLIENT_ERROR_MAX_BODY = 16 * 1024;

export const clientErrorReportSchema = z.object({
  kind: z.enum(CLIENT_ERROR_KINDS),
  message: z.string().min(1).max(2000),
  stack: z.string().max(8000).optional(),
  componentStack: z.string().max(4000).optional(),
  url: safeText.max(2048).optional(),
  release: safeText.max(64).optional(),
});
export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>;

export const clientErrorSchema = clientErrorReportSchema.extend({
  id: z.string(),
  createdAt: z.number(),
  user: z.object({ id: z.string(), email: z.string() }).nullable(),
  userAgent: z.string().nullable(),
  clientAddress: z.string(),
  stack: z.string().nullable(),
  componentStack: z.string().nullable(),
  url: z.string().nullable(),
  release: z.string().nullable(),
});
export type ClientError = z.infer<typeof clientErrorSchema>;

export const clientErrorQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  start: z.string().max(200).optional(),
});
export const clientErrorPageSchema = z.object({ clientErrors: z.array(clientErrorSchema), next: z.string().nullable() });
export type ClientErrorPage = z.infer<typeof clientErrorPageSchema>;
