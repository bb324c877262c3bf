import { z } from 'zod';

/** Response schema of every error, declared on routes so the OpenAPI document shows it. */
export const errorResponseSchema = z.object({
  error: z.string(),
  code: z.string(),
  /** The setting a refusal is about, where there is one (Proxy Settings shows the message beside it). */
  field: z.string().optional(),
});
