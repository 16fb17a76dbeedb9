import { z } from 'zod';

/** Every gateway error answer. */
export const apiErrorSchema = z.object({ code: z.string(), message: z.string() });
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
