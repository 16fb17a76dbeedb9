import { z } from 'zod';

/**
 * POST /organisations/{id}/integrations/{integrationId}/test (managers): a 'test' event is written
 * to the outbox for that one webhook and delivered, signed, like every alert. The answer names the
 * delivery so a receiver's log can be matched to it (the webhook-id header).
 */
export const webhookTestResultSchema = z.object({ webhookId: z.string(), url: z.string() });
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;
